# C++ in torch `load_inline` (a list of sources: one compilation), built for sm_75 and sm_80:
# the `__device__` helper holding `redux.sync` (sm_80) is called from the kernel in the other
# string, so the sm_75 pass compiles it too. The C++ is read as C++ (its functions and calls),
# escapes decoded (`\"`, `\t`), not the Python around it.
from torch.utils.cpp_extension import load_inline

HELPER = """
// targets: sm_75, sm_80
__device__ unsigned warp_sum(unsigned v) {
\tunsigned r;
\tasm volatile(\"redux.sync.add.u32 %0, %1, 0xffffffff;\" : \"=r\"(r) : \"r\"(v));  // expect: arch-requirement, prefer-intrinsic(info)
\treturn r;
}
"""

KERNEL = """
__global__ void sums(const unsigned *in, unsigned *out) {
    out[threadIdx.x] = warp_sum(in[threadIdx.x]);
}
"""

ext = load_inline(name="sums", cpp_sources="", cuda_sources=[HELPER, KERNEL])
