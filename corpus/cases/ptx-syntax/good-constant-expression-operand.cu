// PTX takes integer constant expressions where an immediate goes: `32-2` is one operand
// (ptxas accepts it for sm_75 and sm_90, measured with nvcc 13.5 by an audit judge), not a
// fourth operand and a stray `-`.
__device__ unsigned rotate_pair(unsigned lo, unsigned hi) {
  asm("shf.r.wrap.b32 %0, %0, %1, 32-2;" : "+r"(lo) : "r"(hi));  // expect: prefer-intrinsic(info)
  unsigned s;
  asm("shr.s32 %0, %1, 1<<4;" : "=r"(s) : "r"(lo));
  return s;
}
