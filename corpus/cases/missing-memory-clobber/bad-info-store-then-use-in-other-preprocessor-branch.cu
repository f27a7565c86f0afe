// missing-memory-clobber (info): the only C++ use of `word` after the asm's store sits in the
// `#else` branch of the `#if` that holds the asm (a port to another GPU compiler): no build
// compiles the two together, so nothing beside the asm needs "memory".
#include <cstdint>

struct Packet {
  uint64_t word;

  __device__ void write(uint32_t value, uint32_t flag) {
#if defined(__CUDA_ARCH__) || !defined(OTHER_GPU_COMPILER)
    asm volatile("st.volatile.global.v2.u32 [%0], {%1,%2};" ::"l"(&word), "r"(value), "r"(flag));  // expect: missing-memory-clobber(info), generic-address(info)
#else
    word = (static_cast<uint64_t>(flag) << 32) | value;
#endif
  }
};

__global__ void send(Packet* packets, uint32_t value) {
  packets[threadIdx.x].write(value, 1u);
}
