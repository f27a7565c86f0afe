__device__ __forceinline__ void swab(unsigned x) {
    asm volatile("prmt.b32 %0, %0, 0, 0x0123;" :: "r"(x));
}
__global__ void k(unsigned* out, const unsigned* in, int n) {
    unsigned a = in[threadIdx.x];
    for (int i = 0; i < n; ++i)
        if (i & 1) swab(a);   // in a loop: the next turn passes the clobbered a
}
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-8: prefer-intrinsic(info), write-to-input(warning)
