__device__ __forceinline__ void swab(unsigned x) {
    asm volatile("prmt.b32 %0, %0, 0, 0x0123;" :: "r"(x));
}
#define SWAB(v) swab(v)
__global__ void k(unsigned* out, const unsigned* in) {
    unsigned a = in[threadIdx.x];
    SWAB(a);
    out[threadIdx.x] = a;   // reads the clobbered register
}
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-9: prefer-intrinsic(info), write-to-input(warning)
