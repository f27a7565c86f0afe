// Built for sm_100a only: `tcgen05` needs no guard here.
__global__ void commit(unsigned long long* bar) {
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(bar));
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" :: "r"(addr) : "memory");
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}
