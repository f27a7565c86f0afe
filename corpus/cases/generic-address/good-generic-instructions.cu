// Correct: instructions without a state space take generic pointers.
__device__ unsigned load(const unsigned* p) {
  unsigned v;
  asm volatile("ld.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ void store(unsigned* p, unsigned v) {
  asm volatile("st.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

__device__ unsigned bump(unsigned* p) {
  unsigned old;
  asm volatile("atom.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
  return old;
}

__global__ void k(const unsigned* in, unsigned* out, unsigned* counter) {
  __shared__ unsigned s[64];
  store(&s[threadIdx.x & 63], load(in + threadIdx.x));
  __syncthreads();
  out[threadIdx.x] = load(&s[63 - (threadIdx.x & 63)]) + bump(counter);
}
