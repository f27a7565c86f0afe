// A small hash mixer: rotations through the 64-bit pair trick (mov.b64 pack, then the high half),
// multiply-adds, and xors; all register-only, so no volatile and no clobber are needed.
#include <cstdint>

__device__ __forceinline__ uint32_t rotl13(uint32_t x) {
  uint32_t r;
  asm("{\n\t"
      ".reg .b64 pair;\n\t"
      ".reg .b32 lo;\n\t"
      "mov.b64 pair, {%1, %1};\n\t"
      "mul.lo.u64 pair, pair, 8192;\n\t"
      "mov.b64 {lo, %0}, pair;\n\t"
      "}"
      : "=r"(r)
      : "r"(x));
  return r;
}

__device__ __forceinline__ uint32_t mix(uint32_t h, uint32_t k) {
  uint32_t r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "mul.lo.u32 t, %2, 0xcc9e2d51;\n\t"
      "xor.b32 t, t, %1;\n\t"
      "mad.lo.u32 %0, t, 5, 0xe6546b64;\n\t"
      "}"
      : "=r"(r)
      : "r"(h), "r"(k));
  return r;
}

__global__ void hash_words(const uint32_t* words, uint32_t* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t h = 0x9747b28cu;
  for (int j = 0; j < 4; ++j) h = rotl13(mix(h, words[4 * i + j]));
  out[i] = h;
}
