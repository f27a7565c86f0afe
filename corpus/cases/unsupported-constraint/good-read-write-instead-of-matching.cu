// The nvcc form of a matching constraint: the output set to the input first and read-write.
__global__ void accumulate(unsigned *out, unsigned x, unsigned y) {
    unsigned r = x;
    asm("add.u32 %0, %0, %1;" : "+r"(r) : "r"(y));
    out[0] = r;
}
