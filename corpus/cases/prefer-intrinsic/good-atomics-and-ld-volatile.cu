// Correct: atom, red and ld.volatile have no intrinsic in the table (atomicAdd is C++, not a PTX
// pattern match), and generic loads have no cache-operator intrinsic.
__device__ unsigned ticket(unsigned* next) {
  unsigned t;
  asm volatile("atom.add.u32 %0, [%1], 1;" : "=r"(t) : "l"(next) : "memory");
  return t;
}

__device__ unsigned peek(const unsigned* p) {
  unsigned v;
  asm volatile("ld.volatile.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ void add(float* p, float v) {
  asm volatile("red.add.f32 [%0], %1;" :: "l"(p), "f"(v) : "memory");
}

__global__ void k(unsigned* next, const unsigned* flag, float* total, unsigned* out) {
  out[threadIdx.x] = ticket(next) + peek(flag);
  add(total, 1.0f);
}
