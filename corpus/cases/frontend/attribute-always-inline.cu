// Front end: GNU attributes and CUDA qualifiers in front of the function (tree-sitter often marks
// such declarations as ERROR) must not hide the asm.
__attribute__((always_inline)) __device__ inline unsigned sub3(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, %n2;" : "=r"(r) : "r"(a), "r"(b));  // expect: unsupported-modifier
  return r;
}

__device__ __attribute__((noinline)) __attribute__((used)) unsigned add3(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(a));  // expect: operand-index
  return r + b;
}

static __device__ __forceinline__ __attribute__((pure)) unsigned mul3(unsigned a) {
  unsigned r;
  asm("mul.lo.u32 %0, %1, %c1;" : "=r"(r) : "r"(a));  // expect: unsupported-modifier
  return r;
}

__global__ void k(unsigned* v) {
  unsigned x = v[threadIdx.x];
  v[threadIdx.x] = sub3(x, 3u) + add3(x, 1u) + mul3(x);
}
