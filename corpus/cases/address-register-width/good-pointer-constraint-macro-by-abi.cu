// The pointer constraint comes from a macro defined per ABI. nvcc's device pass always has
// `__LP64__` on Linux (measured with nvcc 13.0: gpu-tests/measure/device-pass-macros.sh), so
// the `#else` branch is dead and the constraint is "l".
#include <cstdint>

#if defined(_WIN64) || defined(__LP64__) || defined(__CUDACC_RTC__)
#define PTR_CONSTRAINT "l"
#else
#define PTR_CONSTRAINT "r"
#endif

__device__ uint32_t load_global(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : PTR_CONSTRAINT(__cvta_generic_to_global(p)) : "memory");
  return v;
}

__global__ void kernel(const uint32_t* in, uint32_t* out) { out[0] = load_global(in); }
