// prefer-cuda-ptx (info): a shfl.sync.down whose clamp operand is a runtime value (a segment's
// last lane) has no __shfl_down_sync equivalent (that intrinsic builds the clamp from a width),
// but cuda::ptx::shfl_sync_down (CCCL 3.0.0) takes the clamp as an argument.
__device__ unsigned down_in_segment(unsigned v, unsigned offset, unsigned last_lane) {
  unsigned r;
  asm volatile("shfl.sync.down.b32 %0, %1, %2, %3, 0xffffffff;"  // expect: prefer-cuda-ptx(info)
               : "=r"(r)
               : "r"(v), "r"(offset), "r"(last_lane));
  return r;
}

__global__ void k(unsigned* v) {
  unsigned t = threadIdx.x;
  v[t] = down_in_segment(v[t], 1u, (t & ~7u) + 7u);
}
