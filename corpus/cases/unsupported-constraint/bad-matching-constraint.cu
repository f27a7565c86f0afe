// A matching constraint ("0": the input in output 0's register) is GCC's and clang's way to
// pass a value in through an output; nvcc 13.0 rejects it for every operand size.
__global__ void accumulate(unsigned *out, unsigned x, unsigned y) {
    unsigned r;
    asm("add.u32 %0, %0, %2;" : "=r"(r) : "0"(x), "r"(y));  // expect: unsupported-constraint
    out[0] = r;
}
