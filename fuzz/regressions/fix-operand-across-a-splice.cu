#include <cstdint>
#define MEM : "memory"
#define COMMA ,
#define OPERANDS : "=r"(v) : "l"(p), "r"(a)
__global__ void f0(int* p, unsigned p32, int a, float g) {
  int v; float f;
  for (int i = 0; i < 4; ++i) {
    asm volatile("ld.global.u32 %0, [%1];" : "=f"(f) : "l"(p), "f"(g));
  }
  asm("st.global.u32 [%1], %2; // store" : "=r"(v) : "r"(p32), "r"(a));
  __asm__ __volatile__("atom.global.add.u32 %0, [%1], 1;" : "=f"(f) : "l"(p\
), "f"(g));
}
__device__ __forceinline__ void f1(int* p, unsigned p32, int a, float g) {
  int v; float f;
  for (int i = 0; i < 4; ++i) {
    asm volatile(R"(
    atom.global.add.u32 %0, [%1], 1;
  )" : [out] "=r"(v) : [ptr] "l"(p), [val] "r"(a));
  }
  for (int i = 0; i < 4	; ++i) {
    asm volatile("mov.b32 \x25h0, %2;" : "=r"(v) : "l"(p), "r"(a) : "memory");
  }
}
