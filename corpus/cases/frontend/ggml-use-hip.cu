// Front end: a project macro that selects the HIP build (GGML_USE_HIP style) guards AMD asm, which
// must stay silent; the #else branch is PTX.
#include <cstdint>

static __device__ __forceinline__ int dot4(int a, int b, int c) {
#if defined(GGML_USE_HIP) && defined(__gfx90a__)
  asm volatile("v_dot4_i32_i8 %0, %1, %2, %3" : "=v"(c) : "v"(a), "v"(b), "v"(c));
  return c;
#elif defined(GGML_USE_HIP)
  asm volatile("v_dot4c_i32_i8 %0, %1, %2" : "+v"(c) : "v"(a), "v"(b));
  return c;
#else
  int r;
  asm("{\n\t"
      ".reg .s32 t;\n\t"
      "mul.lo.s32 t, %1, %2;\n\t"
      "add.s32 %0, t, %n3;\n\t"  // expect: unsupported-modifier
      "}"
      : "=r"(r)
      : "r"(a), "r"(b), "r"(c));
  return r;
#endif
}

__global__ void k(const int* a, const int* b, int* out) {
  out[threadIdx.x] = dot4(a[threadIdx.x], b[threadIdx.x], out[threadIdx.x]);
}
