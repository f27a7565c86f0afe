// missing-memory-clobber (info): after the helper's try-wait, the kernel passes barrier slots
// of its shared storage to functions that take them by reference: this file's `arrive(uint64_t&)`
// and CuTe's `cute::wait_barrier(uint64_t&, int)`. Binding a reference loads nothing, so no C++
// access sits beside the wait before `__syncthreads()`.
#include <cstdint>
#include <cute/arch/copy_sm90_desc.hpp>

struct Storage {
  uint64_t full[4];
  uint64_t empty[4];
};

__device__ bool try_wait(uint64_t& bar, int phase) {
  uint32_t done;
  asm volatile(  // expect: missing-memory-clobber(info)
      "{\n.reg .pred P1;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 P1, [%1], %2;\n"  // expect: prefer-cuda-ptx(info)
      "selp.b32 %0, 1, 0, P1;\n}"
      : "=r"(done)
      : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&bar))), "r"(phase));
  return done != 0;
}

__device__ void arrive(uint64_t& bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(&bar))));  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
}

__global__ void consume(float* out, int stage, int phase) {
  __shared__ Storage storage;
  if (!try_wait(storage.full[stage], phase)) {
    cute::wait_barrier(storage.full[stage], phase);
  }
  arrive(storage.empty[stage]);
  __syncthreads();
  out[threadIdx.x] = 0.0f;
}
