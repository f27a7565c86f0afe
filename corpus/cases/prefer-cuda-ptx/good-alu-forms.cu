// Correct: integer ALU forms cuda::ptx wraps too (bfind, shl, shr, bmsk, prmt modes). The wrapper
// is the same single instruction, no safer than the asm and no clearer than the C++ operator, so
// prefer-cuda-ptx does not suggest it.
__device__ unsigned highest_bit(unsigned x) {
  unsigned r;
  asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(x));
  return r;
}

__device__ unsigned shift_left(unsigned x, unsigned n) {
  unsigned r;
  asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(n));
  return r;
}

__device__ int shift_right(int x, unsigned n) {
  int r;
  asm("shr.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(n));
  return r;
}

__device__ unsigned low_mask(unsigned pos, unsigned len) {
  unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r) : "r"(pos), "r"(len));
#endif
  return r;
}

__device__ unsigned forward_4_extract(unsigned a, unsigned b, unsigned sel) {
  unsigned r;
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel));
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  unsigned x = in[t];
  out[t] = highest_bit(x) + shift_left(x, 3u) + static_cast<unsigned>(shift_right(int(x), 2u)) +
           low_mask(4u, t & 7u) + forward_4_extract(x, t, 1u);
}
