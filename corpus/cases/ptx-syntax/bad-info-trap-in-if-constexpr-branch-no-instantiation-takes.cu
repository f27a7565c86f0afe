// ptx-syntax (info): the `trap` without `;` sits in the last `if constexpr` branch, which no
// N the `static_assert` allows takes (1, 2 and 4 each take an earlier branch): no
// instantiation compiles it, so ptxas never sees it. Every allowed N is instantiated below.
// gpu: nvcc -arch=sm_90 compiles: the `else` branch is discarded for each N (measured, nvcc 13.0, 2026-12-05)
// gpu-bad: compiles
template <int N>
__device__ void fill(unsigned* dst, unsigned value) {
  static_assert(N > 0 && (N & (N - 1)) == 0 && N <= 4, "N is 1, 2 or 4");
  if constexpr (N == 1) {
    asm volatile("mov.b32 %0, %1;" : "=r"(dst[0]) : "r"(value));
  } else if constexpr (N == 2) {
    asm volatile("mov.b32 %0, %2;\n\tmov.b32 %1, %2;" : "=r"(dst[0]), "=r"(dst[1]) : "r"(value));
  } else if constexpr (N == 4) {
    asm volatile("mov.b32 %0, %4;\n\tmov.b32 %1, %4;\n\tmov.b32 %2, %4;\n\tmov.b32 %3, %4;"
                 : "=r"(dst[0]), "=r"(dst[1]), "=r"(dst[2]), "=r"(dst[3])
                 : "r"(value));
  } else {
    asm volatile("trap");  // expect: ptx-syntax(info), prefer-intrinsic(info)
  }
}

__global__ void fill_all(unsigned* out) {
  fill<1>(out, 1u);
  fill<2>(out + 1, 2u);
  fill<4>(out + 3, 4u);
}
