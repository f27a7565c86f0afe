// unsupported-modifier: %a1 (x86's "address" modifier) inside the brackets of a load.
__device__ unsigned load(const unsigned* p) {
  unsigned v;
  asm volatile("ld.u32 %0, [%a1];"  // expect: unsupported-modifier
               : "=r"(v)
               : "l"(p)
               : "memory");
  return v;
}

__global__ void k(const unsigned* in, unsigned* out) {
  out[threadIdx.x] = load(in + threadIdx.x);
}
