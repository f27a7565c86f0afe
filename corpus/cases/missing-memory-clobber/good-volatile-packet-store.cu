// An LL-style packet: data and flag written by one volatile vector store, read back by one
// volatile vector load. `.volatile` keeps the access; it orders no other C++ access, and
// nothing else touches that memory here. Info.
#include <cstdint>

__device__ void store_packet(uint4* slot, uint32_t data, uint32_t flag) {
  asm volatile("st.volatile.global.v4.u32 [%0], {%1, %2, %1, %2};" ::"l"(slot), "r"(data), "r"(flag)); // expect: missing-memory-clobber(info), generic-address(info)
}

__global__ void send(uint4* slots, const uint32_t* in) {
  store_packet(slots + threadIdx.x, in[threadIdx.x], 1u);
}
