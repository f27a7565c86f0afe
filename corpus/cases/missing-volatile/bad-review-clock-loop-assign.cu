__device__ __forceinline__ unsigned now() {
    unsigned r;
    asm("mov.u32 %0, %%clock;" : "=r"(r));
    return r;
}
__global__ void k(unsigned* out, int n) {
    unsigned t;
    for (int i = 0; i < n; ++i) {
        t = now();              // one call site, in a loop: hoistable out of the loop
        out[i] = t;
    }
}
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-11: missing-volatile(warning), prefer-intrinsic(info)
