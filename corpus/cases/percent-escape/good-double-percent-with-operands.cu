// Correct: %% for PTX registers inside an asm with operands.
// gpu-good: compiles
__device__ unsigned pick(unsigned cond, unsigned a, unsigned b) {
  unsigned r;
  asm("{\n\t"
      ".reg .pred %%p;\n\t"
      "setp.ne.u32 %%p, %1, 0;\n\t"
      "selp.u32 %0, %2, %3, %%p;\n\t"
      "}"
      : "=r"(r)
      : "r"(cond), "r"(a), "r"(b));
  return r;
}

__device__ unsigned perf_counter() {
  unsigned v;
  asm volatile("mov.u32 %0, %%pm1;" : "=r"(v));
  return v;
}

__global__ void k(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  out[t] = pick(in[t] & 1u, in[t], t) + perf_counter();
}
