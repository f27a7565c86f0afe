__global__ void k(float* g, float* out) {
    __shared__ float* dst;            // a pointer stored in shared memory, pointing to global
    if (threadIdx.x == 0) dst = g;
    __syncthreads();
    dst[threadIdx.x] = 1.0f;          // a GLOBAL store
    float r;
    asm("ld.global.f32 %0, [%1];" : "=f"(r) : "l"(g + threadIdx.x));  // non-volatile load, may move across it
    out[threadIdx.x] = r;
}
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-4: generic-address(info), missing-memory-clobber(warning)
