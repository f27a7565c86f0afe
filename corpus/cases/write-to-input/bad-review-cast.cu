__global__ void k(unsigned* out, const int* in) {
    int a = in[threadIdx.x];
    unsigned t = (unsigned)a;     // a no-op copy: same register as a
    asm volatile("prmt.b32 %0, %0, 0, 0x0123;" :: "r"(t));
    out[threadIdx.x] = a;
}
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-4: prefer-intrinsic(info), write-to-input(warning)
