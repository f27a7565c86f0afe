// missing-memory-clobber (info): `bar_wait` is called only by the producer warps (`if` branch);
// the shared store after it in the text sits in the consumer warps' `else` branch, which a
// comment separates from the `}`. Code on a branch the call's path never takes is not beside
// the wait, and the producer's path reaches `__syncthreads()` with no C++ access.
#include <cstdint>

__device__ void bar_wait(uint32_t bar, int phase) {
  asm volatile(  // expect: missing-memory-clobber(info)
      "{\n"
      ".reg .pred P1;\n"
      "WAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
      "@!P1 bra.uni WAIT;\n"
      "}\n" ::"r"(bar),
      "r"(phase));
}

__global__ void produce_or_consume(const float* bias, float* out) {
  __shared__ uint64_t consumed[4];
  __shared__ float sh_bias[128];
  int warp = threadIdx.x / 32;
  if (warp >= 4) {
    for (int stage = 0; stage < 4; ++stage) {
      bar_wait(static_cast<uint32_t>(__cvta_generic_to_shared(&consumed[stage])), 0);
    }
  }
  // The consumer warps.
  else {
    sh_bias[threadIdx.x] = bias[threadIdx.x];
  }
  __syncthreads();
  out[threadIdx.x] = sh_bias[threadIdx.x % 128];
}
