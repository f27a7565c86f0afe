// unsupported-constraint: x86's "a" register letter in a __device__ function (copied from host
// code).
// gpu: nvcc rejects: asm operand type size(4) does not match type/size implied by constraint 'a' (measured)
// gpu-bad: nvcc "asm operand type size(4) does not match type/size implied by constraint 'a'"
__device__ unsigned low_word(unsigned long long v) {
  unsigned lo;
  asm("cvt.u32.u64 %0, %1;"
      : "=a"(lo)  // expect: unsupported-constraint
      : "l"(v));
  return lo;
}

__global__ void k(const unsigned long long* in, unsigned* out) {
  out[threadIdx.x] = low_word(in[threadIdx.x]);
}
