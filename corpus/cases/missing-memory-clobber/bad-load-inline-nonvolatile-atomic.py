# C++ in torch `load_inline(cuda_sources=[...])`: an atomic in asm that is neither volatile nor
# clobbers "memory", so the C++ load after it may be merged with the one before (measured with
# nvcc 13.0 on the same shape in a .cu file).
from torch.utils.cpp_extension import load_inline

TICKET = """
__global__ void take_ticket(unsigned *counter, unsigned *seen) {
    unsigned before = counter[0];
    unsigned old;
    asm("atom.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(__cvta_generic_to_global(counter)));  // expect: missing-memory-clobber(warning), missing-volatile
    seen[threadIdx.x] = counter[0] - before + old;
}
"""

ext = load_inline(name="ticket", cpp_sources=[""], cuda_sources=[TICKET], functions=[])
