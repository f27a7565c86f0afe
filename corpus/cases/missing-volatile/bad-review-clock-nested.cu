__device__ __forceinline__ unsigned now() {
    unsigned r;
    asm("mov.u32 %0, %%clock;" : "=r"(r));
    return r;
}
__device__ __forceinline__ void stamp(unsigned* out, int i) { out[i] = now(); }
__global__ void k(unsigned* out, int n) {
    for (int i = 0; i < n; ++i) stamp(out, i);   // now() runs n times, hoistable
}
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-8: missing-volatile(warning), prefer-intrinsic(info)
