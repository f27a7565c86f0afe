// Correct: isspacep.shared exists to test a generic pointer; giving it one is the point.
__device__ unsigned is_shared(const void* p) {
  unsigned r;
  asm("{\n\t"
      ".reg .pred in_smem;\n\t"
      "isspacep.shared in_smem, %1;\n\t"
      "selp.u32 %0, 1, 0, in_smem;\n\t"
      "}"
      : "=r"(r)
      : "l"(p));
  return r;
}

__device__ unsigned is_global(const void* p) {
  unsigned r;
  asm("{\n\t"
      ".reg .pred in_gmem;\n\t"
      "isspacep.global in_gmem, %1;\n\t"
      "selp.u32 %0, 1, 0, in_gmem;\n\t"
      "}"
      : "=r"(r)
      : "l"(p));
  return r;
}

__global__ void k(const float* g, unsigned* out) {
  __shared__ float s[32];
  s[threadIdx.x & 31] = g[threadIdx.x];
  out[threadIdx.x] = is_shared(&s[threadIdx.x & 31]) + 2u * is_global(g + threadIdx.x);
}
