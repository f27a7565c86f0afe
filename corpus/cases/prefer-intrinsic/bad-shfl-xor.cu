// prefer-intrinsic (info): shfl.sync.bfly.b32 is __shfl_xor_sync(). (cuda::ptx::shfl_sync_bfly
// wraps it too, but prefer-cuda-ptx leaves forms with a plain intrinsic to this rule.)
__device__ float butterfly(float v, unsigned lane_mask) {
  float r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;"  // expect: prefer-intrinsic(info)
               : "=f"(r)
               : "f"(v), "r"(lane_mask));
  return r;
}

__global__ void k(float* v) {
  float x = v[threadIdx.x];
  for (unsigned m = 16; m > 0; m >>= 1) x += butterfly(x, m);
  v[threadIdx.x] = x;
}
