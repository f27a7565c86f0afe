// write-to-input: the template writes %0, which is declared as an input.
// gpu: launch k<<<1,1>>>(in, out) with in[0] = 1; out[0] is 5 instead of 1: writing the input register silently changed x (measured)
// gpu-launch: k<<<1, 1>>>(in: i32[1] = 1, out: i32[1] = 0)
// gpu-bad: out[0] != 1
__global__ void k(const int* in, int* out) {
  int x = in[0];
  asm volatile("mov.u32 %0, 5;" :: "r"(x));  // expect: write-to-input
  out[0] = x;
}
