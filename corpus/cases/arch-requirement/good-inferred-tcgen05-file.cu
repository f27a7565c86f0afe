// arch-requirement: unguarded tcgen05 makes this an sm_100a/sm_100f file; its cp.async
// (sm_80) needs no guard there.
__global__ void k(unsigned dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(dst), "l"(__cvta_generic_to_global(src)) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");  // expect: prefer-cuda-ptx
}
