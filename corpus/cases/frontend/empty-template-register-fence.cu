// Front end: empty templates with operands (register fences) are found and left alone; the
// finding in the ordinary asm next to them proves the statements around were mapped.
__device__ float sum_with_fences(const float* v, int n) {
  float acc = 0.0f;
  for (int i = 0; i < n; ++i) {
    acc += v[i];
    asm volatile("" : "+f"(acc) :: "memory");
  }
  unsigned bits;
  asm("mov.b32 %0, %n1;" : "=r"(bits) : "f"(acc));  // expect: unsupported-modifier
  asm volatile("" :: "r"(bits));
  asm volatile("" ::: "memory");
  return acc + static_cast<float>(bits & 1u);
}

__global__ void k(const float* v, float* out) {
  out[threadIdx.x] = sum_with_fences(v + threadIdx.x * 16, 16);
}
