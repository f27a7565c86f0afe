#define READ_CLOCK(r) asm("mov.u32 %0, %%clock;" : "=r"(r))
__global__ void k(unsigned* out, float* x) {
    unsigned t0, t1;
    READ_CLOCK(t0);
    x[threadIdx.x] *= 2.0f;
    READ_CLOCK(t1);
    out[threadIdx.x] = t1 - t0;
}
// Found by a review of the 2026-12-07 session's changes; then measured (2026-12-07, by
// the changing-reads script in gpu-tests/measure): nvcc 13 kept both straight-line reads: info.
// expect@-10: missing-volatile(info), prefer-intrinsic(info)
