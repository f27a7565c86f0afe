// ptx-syntax: a '{' that nothing in the function closes.
// gpu: nvcc -arch=sm_90 fails: ptxas "Parsing error near '': syntax error" at the end of the function (measured)
// gpu-bad: ptxas "syntax error"
__device__ unsigned twice(unsigned a) {
  unsigned r;
  asm("{\n\t"  // expect: ptx-syntax
      ".reg .u32 t;\n\t"
      "add.u32 t, %1, %1;\n\t"
      "mov.u32 %0, t;"
      : "=r"(r)
      : "r"(a));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = twice(v[threadIdx.x]);
}
