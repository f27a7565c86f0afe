// ptx-syntax: the twin of `bad-info-trap-in-if-constexpr-branch-no-instantiation-takes.cu`
// whose `static_assert` also allows N = 8, which no earlier branch takes: `fill<8>` compiles
// the `trap` without `;`, and ptxas reads what follows it as part of it.
// gpu: nvcc -arch=sm_90 fails: ptxas "Arguments mismatch for instruction 'trap'" (what follows the asm read as trap's operands; measured, nvcc 13.0, 2026-12-05)
// gpu-bad: ptxas "Arguments mismatch for instruction 'trap'"
template <int N>
__device__ void fill(unsigned* dst, unsigned value) {
  static_assert(N > 0 && (N & (N - 1)) == 0 && N <= 8, "N is 1, 2, 4 or 8");
  if constexpr (N == 1) {
    asm volatile("mov.b32 %0, %1;" : "=r"(dst[0]) : "r"(value));
  } else if constexpr (N == 2) {
    asm volatile("mov.b32 %0, %2;\n\tmov.b32 %1, %2;" : "=r"(dst[0]), "=r"(dst[1]) : "r"(value));
  } else if constexpr (N == 4) {
    asm volatile("mov.b32 %0, %4;\n\tmov.b32 %1, %4;\n\tmov.b32 %2, %4;\n\tmov.b32 %3, %4;"
                 : "=r"(dst[0]), "=r"(dst[1]), "=r"(dst[2]), "=r"(dst[3])
                 : "r"(value));
  } else {
    asm volatile("trap");  // expect: ptx-syntax(error), prefer-intrinsic(info)
  }
}

__global__ void fill_all(unsigned* out) {
  fill<1>(out, 1u);
  fill<8>(out + 1, 8u);
}
