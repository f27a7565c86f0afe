// missing-memory-clobber (warning): the twin of
// `bad-info-wait-then-barrier-passed-by-reference.cu` whose `record(uint64_t)` takes the barrier
// word by value: the call loads `storage.full[stage]` from shared memory right after the wait,
// with no barrier between, and without "memory" that load may move above the wait.
#include <cstdint>

struct Storage {
  uint64_t full[4];
};

__device__ bool try_wait(uint64_t& bar, int phase) {
  uint32_t done;
  asm volatile(  // expect: missing-memory-clobber(warning)
      "{\n.reg .pred P1;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 P1, [%1], %2;\n"  // expect: prefer-cuda-ptx(info)
      "selp.b32 %0, 1, 0, P1;\n}"
      : "=r"(done)
      : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&bar))), "r"(phase));
  return done != 0;
}

__device__ void record(uint64_t word, float* out) { out[0] = static_cast<float>(word); }

__global__ void consume(float* out, int stage, int phase) {
  __shared__ Storage storage;
  while (!try_wait(storage.full[stage], phase)) {
  }
  record(storage.full[stage], out);
  __syncthreads();
}
