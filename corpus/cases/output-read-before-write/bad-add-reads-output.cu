// output-read-before-write: an "=r" output read by the instruction that writes it; "=" outputs
// are not loaded before the asm, so the read sees garbage.
// gpu: launch k<<<1,1>>>(out) with x = 5 and a = 1; out[0] is 1 instead of 6 (must be "+r")
// gpu-launch: k<<<1, 1>>>(out: u32[1] = 0)
// gpu-bad: out[0] != 6
// gpu-good: out[0] == 6
__device__ __noinline__ unsigned accumulate(unsigned a) {
  unsigned x = 5;
  asm("add.u32 %0, %0, %1;"  // expect: output-read-before-write
      : "=r"(x)
      : "r"(a));
  return x;
}

__global__ void k(unsigned* out) {
  out[0] = accumulate(1u);
}
