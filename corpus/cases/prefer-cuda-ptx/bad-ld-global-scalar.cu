// prefer-cuda-ptx (info): a scalar ld.global is cuda::ptx::ld (CCCL 3.0.0, the version CUDA 13.0
// ships).
__device__ unsigned load_word(const unsigned* p) {
  unsigned v;
  asm volatile("ld.global.u32 %0, [%1];"  // expect: prefer-cuda-ptx(info)
               : "=r"(v)
               : "l"(__cvta_generic_to_global(p))
               : "memory");
  return v;
}

__global__ void k(const unsigned* in, unsigned* out) {
  out[threadIdx.x] = load_word(in + threadIdx.x);
}
