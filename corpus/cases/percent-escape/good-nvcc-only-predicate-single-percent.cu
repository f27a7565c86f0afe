// percent-escape, info only: a predicate register named `%p` with a single % in an asm with
// operands. nvcc passes it through and ptxas accepts it (measured, nvcc 13.0 and NVRTC); only
// clang and GCC-style front ends reject it. Nothing says clang builds this file, so the
// finding is info and no gate fails on it.
__device__ unsigned nonzero(unsigned x) {
  unsigned r;
  asm("{ .reg .pred %p; setp.ne.u32 %p, %1, 0; selp.u32 %0, 1, 0, %p; }"  // expect: percent-escape(info)
      : "=r"(r)
      : "r"(x));
  return r;
}

__global__ void k(unsigned* v) { v[threadIdx.x] = nonzero(v[threadIdx.x]); }
