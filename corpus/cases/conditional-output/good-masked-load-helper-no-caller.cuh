// conditional-output, info only: a masked-load helper of a header. Its output is written only
// when `mask` is set, the caller's own input, and no caller is in view: like a masked load
// without a default, the caller is expected to use the value only where it passed a set mask.
#pragma once

__device__ __forceinline__ unsigned masked_load(const unsigned* p, unsigned mask) {
  unsigned v;
  asm volatile("{\n\t"
               ".reg .pred skip;\n\t"
               "setp.eq.u32 skip, %2, 0;\n\t"
               "@skip bra DONE_%=;\n\t"
               "ld.u32 %0, [%1];\n\t"  // expect: conditional-output(info)
               "DONE_%=:\n\t"
               "}"
               : "=r"(v)
               : "l"(p), "r"(mask)
               : "memory");
  return v;
}
