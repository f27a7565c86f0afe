// missing-memory-clobber (warning): the barrier is written in a lambda, so it runs where the
// lambda is called: there the leader's C++ store sits right before it, and
// other threads read it after; without "memory" the store may sink below the barrier.
__global__ void exchange(int* out, int* count, int group, bool leader) {
  auto group_barrier = [&](int id, int alive) {
    int any = 0;
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n barrier.cta.red.or.pred p, %1, 256, p;\n selp.s32 %0, 1, 0, p;\n}"  // expect: missing-memory-clobber(warning)
                 : "=r"(any)
                 : "r"(id), "r"(alive));
    return any;
  };
  if (leader) {
    count[group] = 7;
  }
  group_barrier(1, 1);
  out[threadIdx.x] = count[group ^ 1];
}
