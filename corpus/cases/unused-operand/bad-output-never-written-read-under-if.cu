// unused-operand (error): the unwritten "=r" output is read later, inside an `if`: any read of
// the garbage counts, guarded or not.
__device__ unsigned checksum(unsigned a, bool log) {
  unsigned sum;
  asm("{ .reg .u32 t; add.u32 t, %1, 1; }"
      : "=r"(sum)  // expect: unused-operand(warning)
      : "r"(a));
  if (log) return sum;
  return a;
}

__global__ void k(unsigned* v) { v[threadIdx.x] = checksum(v[threadIdx.x], threadIdx.x == 0); }
