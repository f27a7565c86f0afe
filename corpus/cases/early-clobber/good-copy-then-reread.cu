// Correct: the output starts as a copy of input %1, and only %1 is read afterwards: if the two
// share a register, it still holds %1's value when the later instructions read it. The final
// guarded add writes %0 after the last read of any input.
__device__ double add_from_lane_above(double input, unsigned offset, unsigned mask) {
  double output;
  asm volatile(
      "{\n\t"
      ".reg .u32 lo, hi;\n\t"
      ".reg .pred p;\n\t"
      ".reg .f64 r0;\n\t"
      "mov.b64 %0, %1;\n\t"
      "mov.b64 {lo, hi}, %1;\n\t"
      "shfl.sync.down.b32 lo|p, lo, %2, 0x1f, %3;\n\t"
      "shfl.sync.down.b32 hi|p, hi, %2, 0x1f, %3;\n\t"
      "mov.b64 r0, {lo, hi};\n\t"
      "@p add.f64 %0, %0, r0;\n\t"
      "}"
      : "=d"(output)
      : "d"(input), "r"(offset), "r"(mask));
  return output;
}

__global__ void k(double* v) {
  v[threadIdx.x] = add_from_lane_above(v[threadIdx.x], 1u, 0xffffffffu);
}
