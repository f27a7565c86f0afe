// The same macro with the branches the wrong way round: the live branch (`__LP64__` is always
// defined in nvcc's device pass on Linux) gives "r" for a 64-bit global address.
#include <cstdint>

#if defined(_WIN64) || defined(__LP64__)
#define PTR_CONSTRAINT "r"
#else
#define PTR_CONSTRAINT "l"
#endif

__device__ uint32_t load_global(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : PTR_CONSTRAINT((uint32_t)(size_t)p) : "memory"); // expect: address-register-width
  return v;
}

__global__ void kernel(const uint32_t* in, uint32_t* out) { out[0] = load_global(in); }
