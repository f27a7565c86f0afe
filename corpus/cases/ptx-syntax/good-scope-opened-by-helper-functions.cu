// Not an error: a scope opened by one helper function's asm and closed by another's
// (`nest_start()` ... `nest_end()`), with the asm that runs inside it called between; ptxas
// sees the braces balanced in the caller. Whether a declaration in a third helper is inside
// such a scope depends on its callers: info, not a warning.
// gpu-good: compiles
__device__ __forceinline__ void nest_start() { asm volatile("{"); }
__device__ __forceinline__ void nest_end() { asm volatile("}"); }
__device__ __forceinline__ void declare_flag() { asm volatile(".reg .pred flag;"); }  // expect: unscoped-declaration(info)
__device__ __forceinline__ void set_flag(unsigned v) { asm volatile("setp.ne.u32 flag, %0, 0;" :: "r"(v)); }
__device__ __forceinline__ unsigned pick(unsigned a, unsigned b) {
  unsigned r;
  asm volatile("selp.b32 %0, %1, %2, flag;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  nest_start();
  declare_flag();
  set_flag(in[threadIdx.x] & 1u);
  out[threadIdx.x] = pick(in[threadIdx.x], 0u);
  nest_end();
}
