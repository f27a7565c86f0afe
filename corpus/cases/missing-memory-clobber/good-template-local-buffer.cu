// Correct: the stores and loads go to a .local buffer the template declares itself; no memory
// the C++ program can see is touched, so no "memory" clobber is needed.
__device__ unsigned swap_halves(unsigned x) {
  unsigned r;
  asm volatile("{\n\t"
               ".local .align 4 .b8 buf[4];\n\t"
               "st.local.u32 [buf], %1;\n\t"
               "ld.local.u16 %0, [buf+2];\n\t"
               "}"
               : "=r"(r)
               : "r"(x));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = swap_halves(v[threadIdx.x]);
}
