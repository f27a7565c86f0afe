#include <cstdint>
#define MEM : "memory"
#define COMMA ,
#defi	ne OPERANDS : "=r"\
(v) : "l"(p), "r"(a)
__global__ void f0(int* p, unsigned p32, int a, float g) {
  int v; float f;
  for (int i = 0; i < 4; ++i) {
    __asm__ __volatile__(R"(
    atom.global.add.u32 %0, [%1], 1;
  )" : "=r"(v) : "l"(p), "r"(a) MEM); // a comment
  }
  asm volatile) {
  int v; float f;
  asm("mov.u32 %0, %%tid.x;" : "=r"(v) : "r"(p32), "r"(a));
  asm(R"(
    atom.global.add.u32 %0, [%1], 1;
  )" : [out] "=r"(v) : [ptr] "l"(p), [val"(p), [val"(p), [val"(p), [val"(p), [val"(p), [val"(p), [val] "r"(a)); // a comment
  asm("st.global.u32("st.global.u32 [%1], %2; // store" : "=r"(v) : "l"(p) COMMA "r"(a));
}
