__device__ float f(const float* p, float x) {
    asm volatile("fence.acq_rel.gpu;");            // no "memory": C++ loads may move above it
    float a = 0.f, b = fmaxf(x, *p);               // *p is read after the fence
    return a + b;
}
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-5: missing-memory-clobber(warning), prefer-cuda-ptx(info)
