// Front end: C++ attributes ([[likely]], [[unlikely]], [[nodiscard]], [[maybe_unused]]) around
// the statements holding asm.
// gpu: compile with -std=c++20
[[nodiscard]] __device__ unsigned clamp_or_wrap(unsigned x, [[maybe_unused]] unsigned hi) {
  unsigned r = x;
  if (x < hi) [[likely]] {
    asm("add.u32 %0, %0, %n1;" : "+r"(r) : "r"(hi));  // expect: unsupported-modifier
  } else [[unlikely]] {
    asm("sub.u32 %0, %0, %2;" : "+r"(r) : "r"(hi));  // expect: operand-index
  }
  return r;
}

__global__ void k(unsigned* v) {
  [[maybe_unused]] const unsigned t = threadIdx.x;
  v[t] = clamp_or_wrap(v[t], 100u);
}
