// ptx-syntax: two instructions with no ';' between them; ptxas complains at the second one.
// gpu: nvcc -arch=sm_90 fails: ptxas "Parsing error near 'st': syntax error"
// gpu-bad: ptxas "Parsing error near 'st': syntax error"
__device__ void put_pair(unsigned* p, unsigned a, unsigned b) {
  asm volatile("st.u32 [%0], %1\n\t"
               "st.u32 [%0+4], %2;"  // expect: ptx-syntax
               :: "l"(p), "r"(a), "r"(b)
               : "memory");
}

__global__ void k(unsigned* out) {
  put_pair(out + 2 * threadIdx.x, threadIdx.x, 1u);
}
