// unused-operand (error): an "=" output the template never writes: its value is garbage.
// gpu: launch k<<<1,1>>>(out) with a = 9; out[0] should be 9 + 10 = 19, but x is whatever the register held (measured with an empty template: 16776640 instead of 9)
__device__ __noinline__ unsigned copy_and_bump(unsigned a) {
  unsigned x = a;
  unsigned y;
  asm volatile("add.u32 %1, %2, 1;"
               : "=r"(x),  // expect: unused-operand(error)
                 "=r"(y)
               : "r"(a));
  return x + y;
}

__global__ void k(unsigned* out) {
  out[0] = copy_and_bump(9u);
}
