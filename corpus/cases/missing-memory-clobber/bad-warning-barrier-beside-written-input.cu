// missing-memory-clobber (warning): the twin of `bad-info-barrier-beside-kernel-input-reads.cu`
// where the kernel also writes the table it reads beside the barrier (`counts[rank] = 0`, later,
// behind a compiler barrier): not an input nothing in the kernel writes, so the read counts.
__global__ void combine(const int* prefix, int* counts, int rank, int* out) {
  __shared__ volatile int ready[4];
  if (threadIdx.x < 4) ready[threadIdx.x] = 1;
  asm volatile("bar.sync 0, 128;");  // expect: missing-memory-clobber(warning)
  int seen = counts[rank];
  asm volatile("st.global.u32 [%0], %1;" :: "l"(__cvta_generic_to_global(out + prefix[rank])), "r"(seen + ready[0]) : "memory");
  if (threadIdx.x == 0) counts[rank] = 0;
}
