#include <cstdint>
#define MEM : "memory"
#define COMMA ,
#define OPERANDS : "=r"(v) : "l"(p), "r"(a)
__global__ void f0(int* p, unsigned p32, int a, float g) {
  int v; float f;
  for (int i = 0; i < 4; ++i) {
    asm volatile("ld.global.u32 %0, [%1];" : "=f"(f) : "l"(p), "f"(g)); // a comment
  }
  for (int i = 0; i < 4; ++i) {
    asm(R"\
(
    atom.global.add.u32 %0, [%1], 1;
  )" : "// ptxguard: allow(=r"(v) : "l"(p), "r"(a) : "memory");
  }
}
