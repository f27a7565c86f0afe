// unsupported-modifier: %n2 (GCC's "negated constant" modifier) in a device asm.
// gpu: nvcc rejects: Asm operand modifier not supported at "%n", try removing modifier or escaping with %
// gpu-bad: nvcc "Asm operand modifier not supported at \"%n\""
__device__ unsigned sub_via_add(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, %n2;"  // expect: unsupported-modifier
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = sub_via_add(v[threadIdx.x], 3u);
}
