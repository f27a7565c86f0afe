// ptx-syntax: "reg" without its dot is read as an unknown instruction; the suggestion is .reg.
// gpu: nvcc -arch=sm_90 fails: ptxas "Not a name of any known instruction: 'reg'", then "Arguments mismatch" on every use of t1
// gpu-bad: ptxas "Not a name of any known instruction: 'reg'"
// gpu-bad: ptxas "Arguments mismatch"
__device__ unsigned mix(unsigned a, unsigned b) {
  unsigned r;
  asm("{\n\t"
      "reg .u32 t1;\n\t"  // expect: ptx-syntax
      "xor.b32 t1, %1, %2;\n\t"
      "add.u32 %0, t1, %2;\n\t"
      "}"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = mix(v[threadIdx.x], 7u);
}
