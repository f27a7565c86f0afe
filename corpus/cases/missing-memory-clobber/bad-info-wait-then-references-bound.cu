// missing-memory-clobber (info): after the wait the kernel binds references into its shared
// storage (`Storage& s = *reinterpret_cast<Storage*>(smem);`, `auto& bar = s.bars[0];`) and
// calls a member function on a barrier (`s.bars[1].init()`, a call: its body is judged where
// it is seen). Binding a reference loads nothing, so no C++ access sits beside the wait before
// `__syncthreads()`.
#include <cstdint>

struct Barrier {
  uint64_t word;
  __device__ void init() { word = 0; }
};
struct Storage {
  Barrier bars[2];
  float tile[128];
};

__global__ void bind_then_sync(char* smem_param, float* out) {
  extern __shared__ char smem[];
  asm volatile("griddepcontrol.wait;");  // expect: missing-memory-clobber(info), prefer-intrinsic(info)
  Storage& s = *reinterpret_cast<Storage*>(smem);
  auto& bar = s.bars[0];
  s.bars[1].init();
  __syncthreads();
  out[threadIdx.x] = s.tile[threadIdx.x % 128] + static_cast<float>(bar.word);
}
