// unscoped-declaration: the same kernel-body asm inside an unrolled loop is pasted four times.
// gpu: nvcc -arch=sm_90 fails: ptxas "Duplicate definition of variable 't'" once unrolled
__global__ void sum4(const unsigned* in, unsigned* out) {
  unsigned acc = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    unsigned v = in[i];
    asm(".reg .u32 t;\n\t"  // expect: unscoped-declaration
        "add.u32 t, %1, %2;\n\t"
        "mov.u32 %0, t;" : "=r"(acc) : "r"(acc), "r"(v));
  }
  *out = acc;
}
