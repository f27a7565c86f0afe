// missing-memory-clobber: the only barrier between the fence and the load is in an #if branch
// the file's own #define rules out: it bounds nothing, and the load may move above the fence.
#define USE_BARRIER 0
__device__ float f(const float* p) {
    asm volatile("fence.acq_rel.gpu;");  // expect: missing-memory-clobber(warning), prefer-cuda-ptx(info)
#if USE_BARRIER
    __syncthreads();                        // never compiled
#endif
    return *p;                              // may move above the fence
}
