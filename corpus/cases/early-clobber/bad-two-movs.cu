// early-clobber: %0 is written by the first mov, then the second mov reads input %2; without "&"
// the allocator may give %0 and %2 the same register and the second mov copies the wrong value.
// gpu-launch: k<<<1, 32>>>(v: u32[64] = iota)
// gpu-bad: v[0] != 1
// gpu-good: v[0] == 1 && v[1] == 0
__device__ void swap_pair(unsigned a, unsigned b, unsigned& x, unsigned& y) {
  asm("mov.b32 %0, %3;\n\t"
      "mov.b32 %1, %2;"
      : "=r"(x),  // expect: early-clobber(info)
        "=r"(y)
      : "r"(a), "r"(b));
}

__global__ void k(unsigned* v) {
  unsigned x, y;
  swap_pair(v[2 * threadIdx.x], v[2 * threadIdx.x + 1], x, y);
  v[2 * threadIdx.x] = x;
  v[2 * threadIdx.x + 1] = y;
}
