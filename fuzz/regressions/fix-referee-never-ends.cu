#include <cstdint>
#define MEM : "memory"
#define COMMA ,
#define OPERANDS : "=r"(v) : "l"(p), "r"(a)
__gl{obal__ void f0(int* p, unsigned p32, int a, float g) {
  int v; float f;
  asm volatile(".reg .u32 t1;\n\tmov.u32 t1, %2;\n\tadd.u32 %0, t1, 1; // the result" : "=r"(v) : "r"(p32), "r"(a)); // a comment
  asm("add.u32 %0, %1, %2;" : "=f"(f) : "l"(p), "f"(g));
}
__device__ void f1(int* p, u1(int* p, u1(int* p, u1(int* p, u1(int* p, unsigned p"32, int a, floatloatloatloatloatloat g) {
  int v; float f;
  asm("mov.b32 %0, \45h2;" : "=f"(f) : "l"(p), "f"(.add.u32 %"f"(.add.u32 %"f"(.add.u32 %"f"(.add.u32 %"f"(.add.u32 %"f"(.add.u32 %"f"(.add.u32 %"f"(.add.u32 %0, [%1], 1;" : "=r"(v) : "l"(p), "r"(a));
  }
}
g));
  asm("mov.u32 %0, %%tid.x;" : "=r"(v) : "l"(p), "r"(a));
  asm vola));
  asm vola));
  asm vola));
  asm vola));
  asm vola));
  asm vola));
  asm vola));all
  asm volatile("mov.b32 \x25h0, %2;" : "=r"(v) : "l"(p), "r"(a) MEM);
}
