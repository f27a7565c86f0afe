// Not loud: the scan step writes its input `partial` as scratch, but the only caller's loop
// replaces the variable with the call's result (`value = step(value, ...)`), so neither the rest
// of the iteration nor the next one reads the old value (info).
__device__ __forceinline__ unsigned step(unsigned partial, unsigned delta) {
  unsigned result;
  asm("{\n\t"
      ".reg .u32 up;\n\t"
      ".reg .pred p;\n\t"
      "shfl.sync.up.b32 up|p, %1, %2, 0, 0xffffffff;\n\t"
      "@p add.u32 %1, up, %1;\n\t"  // expect: write-to-input(info)
      "mov.u32 %0, %1;\n\t"
      "}"
      : "=r"(result)
      : "r"(partial), "r"(delta));
  return result;
}

// The same, with the output bound to the input's own variable: the asm replaces it.
__device__ __forceinline__ unsigned step_in_place(unsigned partial, unsigned delta) {
  asm("{\n\t"
      ".reg .u32 up;\n\t"
      ".reg .pred p;\n\t"
      "shfl.sync.up.b32 up|p, %1, %2, 0, 0xffffffff;\n\t"
      "@p add.u32 %1, up, %1;\n\t"  // expect: write-to-input(info)
      "mov.u32 %0, %1;\n\t"
      "}"
      : "=r"(partial)
      : "r"(partial), "r"(delta));
  return partial;
}

__global__ void k(const unsigned* in, unsigned* out) {
  unsigned value = in[threadIdx.x];
  for (unsigned d = 1; d < 32; d <<= 1) {
    value = step(value, d);
    value = step_in_place(value, d);
  }
  out[threadIdx.x] = value;
}
