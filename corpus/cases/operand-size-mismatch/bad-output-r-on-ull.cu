// operand-size-mismatch: an output "=r" bound to an unsigned long long.
__device__ unsigned long long lane_bits(unsigned x) {
  unsigned long long r;
  asm("and.b32 %0, %1, 0xffff;"
      : "=r"(r)  // expect: operand-size-mismatch
      : "r"(x));
  return r;
}

__global__ void mask_all(const unsigned* in, unsigned long long* out) {
  out[threadIdx.x] = lane_bits(in[threadIdx.x]);
}
