# C++ in torch `load_inline`, built for sm_75 and sm_80 (the corpus reads the `// targets:` line
# inside the C++; in a run they come from TORCH_CUDA_ARCH_LIST, CUDAARCHS, the configuration or
# --target, not from the call's own flags). `redux.sync` needs sm_80 and nothing excludes sm_75.
from torch.utils.cpp_extension import load_inline

WARP_SUM = r"""
// targets: sm_75, sm_80
__global__ void warp_sum(const unsigned *in, unsigned *out) {
    unsigned r;
    asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(in[threadIdx.x]));  // expect: arch-requirement, prefer-intrinsic(info)
    out[threadIdx.x] = r;
}
"""

ext = load_inline(name="warp_sum", cpp_sources="", cuda_sources=WARP_SUM)
