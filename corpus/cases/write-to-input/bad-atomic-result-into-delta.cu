// write-to-input: the atomic's old value is written over the input that carried the delta.
__device__ unsigned fetch_add(unsigned* p, unsigned delta) {
  asm volatile("atom.add.u32 %1, [%0], %1;"  // expect: write-to-input
               :: "l"(p), "r"(delta)
               : "memory");
  return delta;
}

__global__ void k(unsigned* counter, unsigned* out) {
  out[threadIdx.x] = fetch_add(counter, 1u);
}
