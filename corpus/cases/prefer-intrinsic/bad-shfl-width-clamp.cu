// prefer-intrinsic (info): shfl.sync.down with clamp 0x101f is __shfl_down_sync(mask, v, d, 16)
// (the headers build the clamp as ((32 - width) << 8) | 0x1f), and shfl.sync.up with clamp 0 is
// __shfl_up_sync(mask, v, d) (width 32, no 0x1f for up).
__device__ unsigned down16(unsigned v, unsigned delta) {
  unsigned r;
  asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x101f, 0xffffffff;"  // expect: prefer-intrinsic(info)
               : "=r"(r)
               : "r"(v), "r"(delta));
  return r;
}

__device__ unsigned up32(unsigned v, unsigned delta) {
  unsigned r;
  asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;"  // expect: prefer-intrinsic(info)
               : "=r"(r)
               : "r"(v), "r"(delta));
  return r;
}

__global__ void k(unsigned* v) {
  unsigned t = threadIdx.x;
  v[t] = down16(v[t], 1u) + up32(v[t], 1u);
}
