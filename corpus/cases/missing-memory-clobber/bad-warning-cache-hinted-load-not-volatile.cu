// missing-memory-clobber (warning): a plain streaming load (`ld.cg`) in a non-volatile asm without
// "memory": the compiler may hoist or merge it across C++ stores to the same buffer. A warning,
// not an error: such loads usually read data nothing writes while the kernel runs.
#include <cstdint>

__device__ uint32_t load_cg(const uint32_t* p) {
  uint32_t v;
  asm("ld.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));  // expect: missing-memory-clobber(warning)
  return v;
}

// A C++ store to the same buffer beside the load: the compiler may move the load across it.
__global__ void update(uint32_t* p, uint32_t* out) {
  p[0] = 1;
  out[0] = load_cg(p);
}
