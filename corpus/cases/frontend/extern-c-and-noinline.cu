// Front end: asm in functions inside an extern "C" block, with __noinline__ and a
// declaration/definition split.
extern "C" {
__device__ __noinline__ unsigned c_sub3(unsigned a, unsigned b);

__device__ __noinline__ unsigned c_sub3(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, %n2;" : "=r"(r) : "r"(a), "r"(b));  // expect: unsupported-modifier
  return r;
}

__global__ void c_kernel(unsigned* v) {
  v[threadIdx.x] = c_sub3(v[threadIdx.x], 3u);
}
}
