// arch-requirement: with no configured targets the file is taken to be built for the targets
// all its unguarded forms have; wgmma exists only on sm_90a and tcgen05 only on sm_100a/sm_100f
// (and later family members), so no target builds this kernel.
__global__ void k() {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");  // expect: arch-requirement, prefer-cuda-ptx
}
