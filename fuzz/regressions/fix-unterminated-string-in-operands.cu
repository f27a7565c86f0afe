#include <cstdint>
#define MEM : "memory"
#define COMMA ,
#define OPERANDS : "=r"(v) : "l"(p), "r"(a)
__device__ __forceinline__ void f0(int* p, unsigned p32, int a, float g) {
  int v; float f;
  asm volatile(".reg .u32 t1;\n\tmov.u32 t1, %2;\n\tadd.u32 %0, t1, 1; // the result" : "=r"(v) : "l"(p), "r"(a)); // a comment
  asm(".reg .u32 t1;\n\tmov.u32 t1, %2;\n\tadd.u32 %0, t1, 1; // the result" : "=r"(v) : "l"(p), "r"(a) : "memory");
  asm("st.global.u32 [%1], %2; // store" : "=f"(f) : "l"(p), "f"(g));
  asm("mov.u32 %0, %%tid.x;" : "=
"(v)
: "l"(p), "r"(a) : "memory");
}
