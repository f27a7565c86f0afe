// Correct: "l" on a pointer value (not an address here), "q" on a 128-bit integer (mov.b128).
// gpu-good: compiles
#include <cstdint>

__device__ uint64_t ptr_bits(const void* p) {
  uint64_t r;
  asm("mov.b64 %0, %1;" : "=l"(r) : "l"(p));
  return r;
}

__device__ unsigned __int128 swap_halves(unsigned __int128 v) {
  unsigned __int128 r = v;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm("{\n\t"
      ".reg .b64 lo, hi;\n\t"
      "mov.b128 {lo, hi}, %1;\n\t"
      "mov.b128 %0, {hi, lo};\n\t"
      "}"
      : "=q"(r)
      : "q"(v));
#endif
  return r;
}

__global__ void bits(const float* p, uint64_t* out, unsigned __int128* wide) {
  out[threadIdx.x] = ptr_bits(p + threadIdx.x);
  wide[threadIdx.x] = swap_halves(wide[threadIdx.x]);
}
