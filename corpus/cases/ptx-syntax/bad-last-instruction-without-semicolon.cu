// ptx-syntax: the template's last instruction has no ';', so ptxas reads what the compiler
// emits after the asm (the next instruction, a label) as part of it.
// gpu: nvcc -arch=sm_90 fails: ptxas "Parsing error near ':': syntax error"
// gpu-bad: ptxas "Parsing error near"
__global__ void check_size(unsigned *out, int n) {
  if (n > 0) {
    out[0] = n;
  } else {
    asm volatile("trap");  // expect: ptx-syntax, prefer-intrinsic(info)
  }
}

__device__ unsigned plus_one(unsigned x) {
  unsigned r;
  asm("add.u32 %0, %1, 1" : "=r"(r) : "r"(x));  // expect: ptx-syntax
  return r;
}
