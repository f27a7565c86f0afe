__device__ unsigned f(unsigned a, unsigned b) {
    unsigned r;
    asm("add.u32 %0, -%1, %2;" : "=r"(r) : "r"(a), "r"(b));   // ptxas 13.0: "Operand negation not allowed for instruction 'add'" (measured)
    return r;
}
// Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
// expect@-4: ptx-syntax(error)
