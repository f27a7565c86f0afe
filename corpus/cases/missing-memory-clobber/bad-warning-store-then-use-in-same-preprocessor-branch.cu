// missing-memory-clobber (warning): the twin of
// `bad-info-store-then-use-in-other-preprocessor-branch.cu` whose C++ read of `word` sits in
// the same `#if` branch as the asm's store: it may be read before the asm writes it.
#include <cstdint>

struct Packet {
  uint64_t word;

  __device__ uint64_t write(uint32_t value, uint32_t flag) {
#if defined(__CUDA_ARCH__) || !defined(OTHER_GPU_COMPILER)
    asm volatile("st.volatile.global.v2.u32 [%0], {%1,%2};" ::"l"(&word), "r"(value), "r"(flag));  // expect: missing-memory-clobber(warning), generic-address(info)
    return word;
#else
    word = (static_cast<uint64_t>(flag) << 32) | value;
    return word;
#endif
  }
};

__global__ void send(Packet* packets, uint64_t* seen, uint32_t value) {
  seen[threadIdx.x] = packets[threadIdx.x].write(value, 1u);
}
