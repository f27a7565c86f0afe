// unscoped-declaration: a countdown loop whose .reg and label both sit outside { }.
// gpu: nvcc -arch=sm_90 fails: ptxas "Duplicate definition" of 'more' and of label 'SPIN_AGAIN' once spin_count() is inlined twice
// gpu-bad: ptxas "Duplicate definition of variable 'more'"
// gpu-bad: ptxas "Duplicate definition of label 'SPIN_AGAIN'"
__device__ __forceinline__ unsigned spin_count(unsigned n) {
  unsigned left = n;
  asm volatile(".reg .pred more;\n\t"  // expect: unscoped-declaration
               "SPIN_AGAIN:\n\t"  // one finding for the statement: the label is its second label
               "sub.u32 %0, %0, 1;\n\t"
               "setp.ne.u32 more, %0, 0;\n\t"
               "@more bra SPIN_AGAIN;"
               : "+r"(left));
  return left;
}

__global__ void k(unsigned* out) {
  out[threadIdx.x] = spin_count(threadIdx.x + 1) + spin_count(threadIdx.x + 2);
}
