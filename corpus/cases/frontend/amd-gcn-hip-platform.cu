// Front end: AMD GCN asm under #ifdef __HIP_PLATFORM_AMD__ is not PTX and must stay silent (its
// "v" constraint and s_waitcnt would be wrong as PTX); the CUDA branch's finding proves the
// statement next to it was analysed.
#include <cstdint>

__device__ uint32_t add_lanes(uint32_t a, uint32_t b) {
  uint32_t r;
#ifdef __HIP_PLATFORM_AMD__
  asm volatile("v_add_u32 %0, %1, %2" : "=v"(r) : "v"(a), "v"(b));
  asm volatile("s_waitcnt lgkmcnt(0)" ::: "memory");
#else
  asm("add.u32 %0, %1, %n2;" : "=r"(r) : "r"(a), "r"(b));  // expect: unsupported-modifier
#endif
  return r;
}

__global__ void k(uint32_t* v) {
  v[threadIdx.x] = add_lanes(v[threadIdx.x], 7u);
}
