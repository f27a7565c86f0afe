// prefer-intrinsic (info): vote.sync.ballot.b32 is __ballot_sync().
__device__ unsigned ballot(unsigned pred) {
  unsigned r;
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "setp.ne.u32 p, %1, 0;\n\t"
               "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"  // expect: prefer-intrinsic(info)
               "}"
               : "=r"(r)
               : "r"(pred));
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  out[threadIdx.x] = ballot(in[threadIdx.x] & 1u);
}
