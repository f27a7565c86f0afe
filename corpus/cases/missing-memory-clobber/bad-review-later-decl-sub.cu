__device__ float f(const float* p, float x, int i) {
    asm volatile("fence.acq_rel.gpu;");
    float a = 0.f, b = fmaxf(x, p[i]);
    return a + b;
}
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-5: missing-memory-clobber(warning), prefer-cuda-ptx(info)
