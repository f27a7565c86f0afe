// Incorrect: one statement needs both `wgmma` (sm_90a only) and `tcgen05` (sm_100a/sm_100f):
// no target builds it. With nothing configured, the file's targets are inferred, and this
// statement alone leaves none (the fuzzer found the case: it used to panic).
__global__ void k() {
  asm volatile("wgmma.fence.sync.aligned;\n\t" // expect: arch-requirement
               "tcgen05.fence::before_thread_sync;" ::: "memory");
}
