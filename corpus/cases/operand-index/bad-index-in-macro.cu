// operand-index: the out-of-range placeholder is in a macro body; the finding is on that #define
// line.
// gpu: nvcc crashes: Internal Compiler Error (codegen): "asm operand index requested is larger than the number of asm operands provided!" (measured)
// gpu-bad: nvcc "asm operand index requested is larger than the number of asm operands provided!"
#define STORE_PAIR(addr, x, y)                                  \
  asm volatile("st.v2.u32 [%0], {%1, %3};" /* expect: operand-index */ \
               :: "l"(addr), "r"(x)                             \
               : "memory")

__device__ void store_pair(unsigned* p, unsigned x) {
  STORE_PAIR(p, x, x);
}

__global__ void k(unsigned* out) {
  store_pair(out + 2 * threadIdx.x, threadIdx.x);
}
