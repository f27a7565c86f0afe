# C++ in torch `load_inline`, built for sm_75 and sm_80: `redux.sync` is guarded by
# `__CUDA_ARCH__ >= 800`, so the sm_75 pass never sees it; the fallback is a shuffle.
from torch.utils.cpp_extension import load_inline

WARP_SUM = r"""
// targets: sm_75, sm_80
__device__ unsigned warp_sum(unsigned v) {
#if __CUDA_ARCH__ >= 800
    unsigned r;
    asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));  // expect: prefer-intrinsic(info)
    return r;
#else
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    return __shfl_sync(0xffffffffu, v, 0);
#endif
}

__global__ void sums(const unsigned *in, unsigned *out) {
    out[threadIdx.x] = warp_sum(in[threadIdx.x]);
}
"""

ext = load_inline(name="sums", cpp_sources="", cuda_sources=WARP_SUM)
