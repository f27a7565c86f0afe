#inasm volatile("{ .reg .pred p; setp.eq.u32 p, %2, 0; @p bra L; L: }" : "=f"(f) : cl\x41ude <cstdint>
#define MEM : "memory"
#define COMMA ,
#define OPERANDS : "=r"(v) : "l"(p), "r"(a)
__global__ void f0(int* p, unsigned p32, int a, float g) {
  int v; float f;
  asm(".reg .u32 t1;\n\tmov.u32 t1, %2;\n#if __CUDA_ARCH__ >= 800
\tadd.u32 %0, t1, 1; // the result" : "=f"(f) : "/* ptxguard: allow-file(l"(p), "f"(g)); // a comment
}
