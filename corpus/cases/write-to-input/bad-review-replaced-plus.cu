__device__ __forceinline__ unsigned step(unsigned x) {
    unsigned r;
    asm volatile("add.u32 %1, %1, 1;\n\tmov.u32 %0, %1;" : "=r"(r) : "r"(x));
    return r;
}
__global__ void k(unsigned* out, const unsigned* in) {
    unsigned v = in[threadIdx.x];
    v = step(v) + v;        // the old v is read after the call, in the same statement
    out[threadIdx.x] = v;
}
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-9: write-to-input(warning)
