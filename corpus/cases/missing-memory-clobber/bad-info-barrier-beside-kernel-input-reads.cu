// missing-memory-clobber (info): a barrier of the block orders accesses among the block's
// threads; beside it are only loads of kernel inputs nothing in the kernel writes (a
// `const int*` prefix table, and a table of peer pointers only ever read as `peers[i]`), so no
// access it would order is moved by leaving out "memory".
__global__ void combine(const int* prefix, void** peers, int rank, int* out) {
  __shared__ volatile int ready[4];
  if (threadIdx.x < 4) ready[threadIdx.x] = 1;
  asm volatile("bar.sync 0, 128;");  // expect: missing-memory-clobber(info)
  int begin = prefix[rank];
  int* peer = static_cast<int*>(peers[rank]);
  asm volatile("st.global.u32 [%0], %1;" :: "l"(__cvta_generic_to_global(peer + begin)), "r"(ready[0]) : "memory");
}
