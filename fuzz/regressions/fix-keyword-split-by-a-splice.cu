#include <cstdint>
#define MEM : "memory"
#define COMMA ,
#define OPERANDS : "=r"(v) : "l"(p), "r"(a)
__device__ __forceinline__ voidPf0(int* p, unsigned p32, int a, float g) {
  int v; float f;
  a\
sm("mov.b32 %0, \45h2;" : "=r"(v) : "l"(p), "r"(a));
}
__device__ void f1(int* p, unsigned p32, int a, floa\
t g) {
  int v; float f;
  /* ptxguard: allow-file(asm("mov.b32 \x25h0, %2;" : "=r"(v) : "l"(p) COMMA "r"(a)); // a "r"(a)); // a "r"(a)); // a "r"(a)); // a "r"(a)); // a "r"(\
a)); // a "r"(a)); // a "r"(a)); // a "r"(a)); // a comment
}
__device__ __forceinline__ void f2(int* p, u