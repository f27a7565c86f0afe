__device__ unsigned f(unsigned a) {
    unsigned r;
    asm volatile("{");
    asm volatile(".reg .u32 t;\n\tadd.u32 t, %1, 1;\n\tmov.u32 %0, t;" : "=r"(r) : "r"(a));
    asm volatile("{");      // typo: meant "}": the scope never closes
    return r;
}
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-6: ptx-syntax(error)
// expect@-5: ptx-syntax(error)
