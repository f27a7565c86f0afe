// unsupported-modifier: %a1 (x86's "address" modifier) inside the brackets of a load.
// gpu: nvcc rejects: Asm operand modifier not supported at "%a", try removing modifier or escaping with % (measured)
// gpu-bad: nvcc "Asm operand modifier not supported at \"%a\""
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
