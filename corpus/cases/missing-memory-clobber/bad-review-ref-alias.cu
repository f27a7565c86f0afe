__global__ void k(float* g, float v) {
    float acc[8];
    float* p = acc;
    float*& r = p;                    // reference to the pointer
    r = g;                            // p now points to global memory
    asm volatile("fence.acq_rel.gpu;");
    p[threadIdx.x] = v;
}
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-4: missing-memory-clobber(warning), prefer-cuda-ptx(info)
