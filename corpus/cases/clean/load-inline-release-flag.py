# C++ in a torch load_inline extension: a producer publishes data with a release store and a
# consumer spins on an acquire load (generic addresses), each asm volatile with a "memory"
# clobber.
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
__device__ void publish(unsigned* flag, unsigned value) {
    asm volatile("st.release.gpu.u32 [%0], %1;" :: "l"(flag), "r"(value) : "memory");
}

__device__ unsigned wait_for(const unsigned* flag) {
    unsigned seen;
    do {
        asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(seen) : "l"(flag) : "memory");
    } while (seen == 0);
    return seen;
}

__global__ void handoff(float* data, unsigned* flag) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = 1.0f;
        __syncthreads();
        if (threadIdx.x == 0) publish(flag, 1);
    } else if (threadIdx.x == 0) {
        wait_for(flag);
    }
}
"""

ext = load_inline(name="handoff", cpp_sources="", cuda_sources=cuda_source, functions=[])
