// Correct for prefer-cuda-ptx: %laneid is cuda::ptx::get_sreg_laneid(), but here its read is one
// step of a longer computation in the same template; the rule does not pick one instruction out
// of a multi-instruction template.
__device__ unsigned lane_byte_offset() {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 lane;\n\t"
      "mov.u32 lane, %%laneid;\n\t"
      "shl.b32 %0, lane, 2;\n\t"
      "}"
      : "=r"(r));
  return r;
}

__global__ void k(unsigned* out) {
  out[threadIdx.x] = lane_byte_offset();
}
