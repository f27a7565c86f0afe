// Correct: in-place updates declared with "+r".
__device__ unsigned scale_in_place(unsigned acc, unsigned k) {
  asm("mul.lo.u32 %0, %0, %1;" : "+r"(acc) : "r"(k));
  return acc;
}

__device__ unsigned fetch_add(unsigned* p, unsigned delta) {
  asm volatile("atom.add.u32 %0, [%1], %0;" : "+r"(delta) : "l"(p) : "memory");
  return delta;
}

__global__ void k(unsigned* counter, unsigned* v) {
  v[threadIdx.x] = scale_in_place(v[threadIdx.x], 3u) + fetch_add(counter, 1u);
}
