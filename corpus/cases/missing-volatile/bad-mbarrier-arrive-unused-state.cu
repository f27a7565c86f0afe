// missing-volatile: mbarrier.arrive's state token is usually ignored; without volatile (or
// "memory") the arrive itself can be deleted and the waiting threads hang.
#include <cstdint>

__device__ void arrive(uint32_t bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint64_t state;
  asm("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(bar));  // expect: missing-volatile, missing-memory-clobber, prefer-cuda-ptx(info)
#endif
}

__global__ void k() {
  __shared__ uint64_t bar;
  arrive(static_cast<uint32_t>(__cvta_generic_to_shared(&bar)));
}
