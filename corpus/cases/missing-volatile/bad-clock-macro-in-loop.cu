// missing-volatile: a clock-reading macro used in a loop; each use is the same pure asm, which
// the compiler hoists out of the loop (measured for a read in a loop: the spin case beside).
#define READ_CLOCK(r) asm("mov.u32 %0, %%clock;" : "=r"(r))
__global__ void k(unsigned* out, int n) {
    unsigned t;
    for (int i = 0; i < n; ++i) {
        READ_CLOCK(t);
        out[i] = t;
    }
}
// expect@-8: missing-volatile(warning), prefer-intrinsic(info)
