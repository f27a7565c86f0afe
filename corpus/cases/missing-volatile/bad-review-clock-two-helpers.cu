__device__ __forceinline__ unsigned start_clock() {
    unsigned r;
    asm("mov.u32 %0, %%clock;" : "=r"(r));
    return r;
}
__device__ __forceinline__ unsigned stop_clock() {
    unsigned r;
    asm("mov.u32 %0, %%clock;" : "=r"(r));
    return r;
}
__global__ void k(unsigned* out, float* x) {
    unsigned t0 = start_clock();
    x[threadIdx.x] *= 2.0f;
    unsigned t1 = stop_clock();   // identical non-volatile asm: CSE merges it with t0
    out[threadIdx.x] = t1 - t0;
}
// Found by a review of the 2026-12-07 session's changes; then measured (2026-12-07, by
// the changing-reads script in gpu-tests/measure): nvcc 13 kept both straight-line reads: info.
// expect@-16: missing-volatile(info), prefer-intrinsic(info)
// expect@-12: missing-volatile(info), prefer-intrinsic(info)
