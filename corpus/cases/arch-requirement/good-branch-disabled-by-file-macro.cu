// arch-requirement: the file defines USE_WGMMA to 0 a few lines above, so no configuration
// compiles the branch: it is not checked.
// targets: sm_80, sm_90
#define USE_WGMMA 0

__global__ void k() {
#if USE_WGMMA
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}
