// unsupported-constraint (info): "n" for an operand position that also takes a register. nvcc 13
// accepts it, but NVIDIA does not guarantee it: write "r".
__device__ unsigned add4(unsigned x) {
  unsigned r;
  asm("add.u32 %0, %1, %2;"
      : "=r"(r)
      : "r"(x),
        "n"(4));  // expect: unsupported-constraint(info)
  return r;
}

__device__ unsigned byte_field(unsigned x) {
  unsigned r;
  asm("bfe.u32 %0, %1, 8, %2;"
      : "=r"(r)
      : "r"(x),
        "n"(8));  // expect: unsupported-constraint(info)
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = add4(v[threadIdx.x]) + byte_field(v[threadIdx.x]);
}
