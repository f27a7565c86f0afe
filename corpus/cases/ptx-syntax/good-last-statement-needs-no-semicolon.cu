// A template may end without ';' where its last statement is not an instruction: a closing
// brace of a scope, or a label; and a template whose end is a macro piece is not judged.
#define TAIL_ARG(x) x
__device__ unsigned plus_one(unsigned x) {
  unsigned r;
  asm("{ .reg .u32 t; add.u32 t, %1, 1; mov.u32 %0, t; }" : "=r"(r) : "r"(x));
  return r;
}

__device__ void spin(unsigned n) {
  asm volatile("{ .reg .pred p; .reg .u32 t; mov.u32 t, %0; WAIT: sub.u32 t, t, 1; setp.ne.u32 p, t, 0; @p bra WAIT; }" :: "r"(n));
}
