struct Box { float v[32]; };
__device__ Box g_box;
using BoxRef = Box&;
__device__ void f(float x, float* out) {
    BoxRef box = g_box;               // a reference to global memory, declared like a value
    asm volatile("fence.acq_rel.gpu;");
    box.v[threadIdx.x] = x;
}
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-4: missing-memory-clobber(warning), prefer-cuda-ptx(info)
