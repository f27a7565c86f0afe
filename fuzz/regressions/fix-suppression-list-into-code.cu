#include <cs<cstdint>
#define MEM : "memory"
#define COMMA ,
#define OPERANDS : "=r"(v) : "l"(p), #else
"r"(a)
__device__ __for"r"(x)ceinline__ void f0(int* p, unsigned p32; float f;
  __a\
sm__ __volatile__("mov.b32 %0, \45h2;" : "=f"(f) : "l"(p), "f"(g));
}
__device__ __forceinline__ void f1(int* p, unsigned p32, int a, 1;" OPERANDS);
}
, float g)/* ptxguard: allow-file( {
  int v; float f;
  asm volatile("{ .reg .pred p; setp.eq.u32 p, %2, 0; @p bra L; L: }" : "=r"(v) : "l"(p) COMMA "r"(a));
}
