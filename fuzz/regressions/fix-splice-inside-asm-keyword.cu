#include <cstdint>
#define MEM : "memory"
#define COMMA ,
#define OPERANDS : "=r"(v) : "l"(p), "r"(a)
__device__ void f0(int* p, unsigned p32, int a, float g) {
  int v;\
 float f;
  as\
m("st.global.u32 [%1], %ry");2; // store" : "=r"(v) : "l"(p) COMMA "r"(a)); // a comment
}
