// A scope helper pair somewhere in the file...
__device__ void nestStart() { asm volatile("{"); }
__device__ void nestEnd() { asm volatile("}"); }
// ...and an unrelated helper that declares a register without a scope,
__device__ __forceinline__ unsigned inc(unsigned a) {
    unsigned r;
    asm volatile(".reg .u32 t;\n\tadd.u32 t, %1, 1;\n\tmov.u32 %0, t;" : "=r"(r) : "r"(a));
    return r;
}
// called twice in one kernel, never between nestStart/nestEnd: ptxas rejects the duplicate .reg
__global__ void k(unsigned* p) { p[0] = inc(p[0]); p[1] = inc(p[1]); }
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-6: unscoped-declaration(warning)
