// Correct: every letter nvcc accepts in device code (h r l f d), with the =, + and & modifiers.
// gpu-good: compiles
#include <cstdint>

__device__ void all_letters(unsigned short h, unsigned r, uint64_t l, float f, float g, double d,
                            unsigned short& ho, unsigned& ro, uint64_t& lo, float& fo,
                            double& dout) {
  asm("mov.b16 %0, %1;" : "=h"(ho) : "h"(h));
  asm("add.u32 %0, %0, %1;" : "+r"(ro) : "r"(r));
  asm("add.u64 %0, %1, %1;" : "=l"(lo) : "l"(l));
  asm("{\n\t"
      "mul.f32 %0, %1, 0f40000000;\n\t"
      "add.f32 %0, %0, %2;\n\t"
      "}"
      : "=&f"(fo)
      : "f"(f), "f"(g));
  asm("neg.f64 %0, %1;" : "=d"(dout) : "d"(d));
}

__global__ void k(unsigned* out, float* fout, double* dout, uint64_t* lout, unsigned short* hout) {
  unsigned t = threadIdx.x;
  unsigned ro = t;
  all_letters(static_cast<unsigned short>(t), t, t, 1.0f, 0.5f, 2.0, hout[t], ro, lout[t], fout[t],
              dout[t]);
  out[t] = ro;
}
