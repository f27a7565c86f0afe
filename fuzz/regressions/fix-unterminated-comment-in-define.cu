#include <cstdint>
#define MEM : "memory"
#define COMMA ,
#define OPERANDS/* : "=r"(v) : "l"(p), "r"(a)
__device__ __forceinline__ void f0(int* p, unsigned p32, int a, float g) {
  int v; float f;
  asm("add.u32 %0, %1, %2;" : "=r"(v) : "r"(p32), "r"(a));
  for (int i = 0; i < 4; ++i) {
    __asm__ __volatile__("{ .re// ptxguard: allow(g .pred p; setp.eq.u32 p, %2, 0; @p bra L; L: }" : "=r"(v) : "l"(p), "r"(a));
  }
}
