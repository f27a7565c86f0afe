// Built for sm_75 and sm_90 (the Makefile's GENCODE_FLAGS), with -DNO_CLUSTER.
__global__ void scan(const unsigned* in, unsigned* out) {
  unsigned v = in[threadIdx.x];
#ifndef NO_CLUSTER
  asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
#endif
  unsigned r;
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
  out[threadIdx.x] = r;
}
