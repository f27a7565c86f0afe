__global__ void k(unsigned* out, const unsigned* in, bool c) {
    unsigned a = in[threadIdx.x];
    unsigned t = a;                 // a copy of a (shares a's register) ...
    if (c) t = a ^ 0x5u;            // ... unless c: the "last mention" is only one path
    asm volatile("prmt.b32 %0, %0, 0, 0x0123;" :: "r"(t));
    out[threadIdx.x] = a;           // a is read after: clobbered on the !c path
}
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-4: prefer-intrinsic(info), write-to-input(warning)
