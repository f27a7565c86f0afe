// missing-memory-clobber (info): `bars` is a function object made from a lambda that only
// computes addresses (`base + i`); `bars[i]` calls it, loading nothing, and the barrier
// objects are set up through calls, so no C++ access sits beside the wait before
// `__syncthreads()`.
#include <cstdint>

template <typename F>
struct Visitor {
  F f;
  __device__ Visitor(F f) : f(f) {}
  __device__ auto operator[](int i) const { return f(i); }
};

__device__ void init_barrier(uint64_t* bar, int count);

__global__ void set_up(float* out) {
  extern __shared__ uint64_t smem_barriers[];
  uint64_t* base = smem_barriers;
  auto bars = Visitor([=](int i) { return base + i; });
  asm volatile("griddepcontrol.wait;");  // expect: missing-memory-clobber(info), prefer-intrinsic(info)
  if (threadIdx.x < 4) {
    init_barrier(bars[threadIdx.x], 1);
  }
  __syncthreads();
  out[threadIdx.x] = 0.0f;
}
