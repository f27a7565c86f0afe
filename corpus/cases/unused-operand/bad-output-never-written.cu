// unused-operand (error): an "=" output the template never writes: its value is garbage.
// gpu: launch k<<<1,1>>>(out) (a = 9); out[0] should be x + y = 9 + 10 = 19, but x is whatever the register held (measured: 10, x was 0)
// gpu-launch: k<<<1, 1>>>(out: u32[1] = 0)
// gpu-bad: out[0] != 19
// gpu-good: out[0] == 19
__device__ __noinline__ unsigned copy_and_bump(unsigned a) {
  unsigned x = a;
  unsigned y;
  asm volatile("add.u32 %1, %2, 1;"
               : "=r"(x),  // expect: unused-operand(warning)
                 "=r"(y)
               : "r"(a));
  return x + y;
}

__global__ void k(unsigned* out) {
  out[0] = copy_and_bump(9u);
}
