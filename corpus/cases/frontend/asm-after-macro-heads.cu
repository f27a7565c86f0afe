// Front end: an asm after the `)` of a macro that expands to a loop or `if` head, or after
// `_Pragma(...)`, is a statement: only `asm("symbol")` (one string naming a symbol, no
// qualifiers, no operands) after a declarator is an asm label.
#define FOR_LANES(i, n) for (int i = 0; i < (n); ++i)
#define IF_LANE0(x) if ((x) == 0)
__global__ void k(unsigned* out) {
  unsigned r = 0;
  FOR_LANES(i, 4) asm volatile("add.u32 %0, %0, 1" : "+r"(r));  // expect: ptx-syntax
  IF_LANE0(threadIdx.x) asm volatile("add.u32 %0, %0, 3" : "+r"(r));  // expect: ptx-syntax
  _Pragma("nounroll") asm volatile("add.u32 %0, %0, 2" : "+r"(r));  // expect: ptx-syntax
  out[1] = r;
}
