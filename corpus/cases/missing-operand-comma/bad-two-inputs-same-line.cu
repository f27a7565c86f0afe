// missing-operand-comma: two inputs with no comma between them. nvcc binds both (the sum is
// right); clang and GCC reject the file.
// gpu-launch: k<<<1, 32>>>(v: u32[32] = iota)
// gpu-bad: compiles
// gpu-bad: v[3] == 8
// gpu-good: v[3] == 8
// Built by clang too (a warning; info where only nvcc builds the file):
// portability: clang
__device__ unsigned add(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(a) "r"(b));  // expect: missing-operand-comma(warning)
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = add(v[threadIdx.x], 5u);
}
