// In a macro's body, `N` is the macro's parameter: each use passes its own argument (here a
// constant), whatever the names of the function where the macro is first used.
#define CP_ASYNC_WAIT_GROUP(N) asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory")

template <int STAGES>
__device__ void drain(int N) {
  for (int i = 0; i < N; ++i) {
    CP_ASYNC_WAIT_GROUP(STAGES - 2);
  }
}

template __device__ void drain<3>(int);
