// Correct: plain ld.global / st.global (no cache hint). cuda::ptx::ld / st wrap them, but a C++
// expression (`*p`, `*p = v`) is the better replacement, so prefer-cuda-ptx says nothing.
__device__ unsigned load_word(const unsigned* p) {
  unsigned v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(__cvta_generic_to_global(p)) : "memory");
  return v;
}

__device__ void store_word(unsigned* p, unsigned v) {
  asm volatile("st.global.weak.u32 [%0], %1;" :: "l"(__cvta_generic_to_global(p)), "r"(v) : "memory");
}

__global__ void k(const unsigned* in, unsigned* out) {
  store_word(out + threadIdx.x, load_word(in + threadIdx.x) + 1u);
}
