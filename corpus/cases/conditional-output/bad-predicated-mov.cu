// conditional-output: an "=r" output written only under a predicate: when the predicate is false
// the output is undefined, not its previous value.
// gpu: launch k<<<1,1>>>(out) (x = 5, not 34; y = 77 before the asm); out[0] is not 77 (measured: 0 in one build, 16776640 in another): the value is undefined; it must be "+r"
// gpu-launch: k<<<1, 1>>>(out: i32[1] = 0)
// gpu-bad: out[0] != 77
// gpu-good: out[0] == 77
__device__ __noinline__ int flag_if_34(int x) {
  int y = 77;
  asm("{\n\t"
      ".reg .pred p;\n\t"
      "setp.eq.s32 p, %1, 34;\n\t"
      "@p mov.s32 %0, 1;\n\t"  // expect: conditional-output
      "}"
      : "=r"(y)
      : "r"(x));
  return y;
}

__global__ void k(int* out) {
  out[0] = flag_if_34(5);
}
