# C++ in a cupy RawKernel: bit-field extract and insert with inline PTX (no CUDA intrinsic
# does either), operands as C++ writes them.
import cupy

repack = cupy.RawKernel(r'''
extern "C" __global__ void repack(const unsigned* in, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned word = in[i];
    unsigned hi, packed;
    asm("bfe.u32 %0, %1, 16, 8;" : "=r"(hi) : "r"(word));
    asm("bfi.b32 %0, %1, %2, 8, 8;" : "=r"(packed) : "r"(hi), "r"(word));
    out[i] = packed;
}
''', 'repack')
