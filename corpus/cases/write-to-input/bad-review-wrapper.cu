// Two-level helper: the value IS read after the asm once both are inlined.
__device__ __forceinline__ void swab(unsigned x) {
    asm volatile("prmt.b32 %0, %0, 0, 0x0123;" :: "r"(x));
}
__device__ __forceinline__ void swab_wrap(unsigned v) {
    swab(v);
}
__global__ void k(unsigned* out, const unsigned* in) {
    unsigned a = in[threadIdx.x];
    swab_wrap(a);
    out[threadIdx.x] = a;   // reads the clobbered register
}
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-11: prefer-intrinsic(info), write-to-input(warning)
