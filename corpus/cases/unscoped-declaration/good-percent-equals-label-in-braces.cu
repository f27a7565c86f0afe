// Correct: labels made unique with %= and kept inside { } along with the predicate register.
// gpu-good: compiles
__device__ __forceinline__ unsigned spin_count(unsigned n) {
  unsigned left = n;
  asm volatile("{\n\t"
               ".reg .pred more;\n\t"
               "SPIN_%=:\n\t"
               "sub.u32 %0, %0, 1;\n\t"
               "setp.ne.u32 more, %0, 0;\n\t"
               "@more bra SPIN_%=;\n\t"
               "}"
               : "+r"(left));
  return left;
}

__global__ void k(unsigned* out) {
  unsigned t = threadIdx.x;
  out[t] = spin_count(t + 1) + spin_count(t + 2);
}
