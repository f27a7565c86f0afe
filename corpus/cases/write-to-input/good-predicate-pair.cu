// Correct: `shfl.sync d|p` writes its output and a template predicate; inputs are read.
__device__ int shfl_or_keep(int v, int src, int fallback) {
  int r;
  asm volatile(
      "{\n\t"
      ".reg .pred in_range;\n\t"
      ".reg .b32 t;\n\t"
      "shfl.sync.idx.b32 t|in_range, %1, %2, 0x1f, 0xffffffff;\n\t"  // expect: prefer-cuda-ptx(info)
      "selp.b32 %0, t, %3, in_range;\n\t"
      "}"
      : "=r"(r)
      : "r"(v), "r"(src), "r"(fallback));
  return r;
}

__global__ void k(int* out) {
  out[threadIdx.x] = shfl_or_keep(threadIdx.x, threadIdx.x + 1, -1);
}
