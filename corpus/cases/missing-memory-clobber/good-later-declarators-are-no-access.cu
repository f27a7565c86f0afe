// Not loud: a cluster barrier after barrier set-up, with nothing but declarations beside it.
// `T *a = x, *b = y;` declares a second pointer (no store through `b`), and
// `__shared__ uint64_t full[4], empty[4];` declares a second array (no access to `empty`).
#include <cstdint>

struct Smem {
  float tile[256];
  uint64_t full[4], empty[4];
};

__device__ void init_barrier(uint64_t* bar, int count) {
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(addr), "r"(count));  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
}

__global__ void __cluster_dims__(2, 1, 1) k(float* out) {
  extern __shared__ __align__(128) unsigned char smem[];
  Smem& s = *reinterpret_cast<Smem*>(smem);
  uint64_t *full = s.full, *empty = s.empty;
  if (threadIdx.x == 0) {
    for (int i = 0; i < 4; ++i) {
      init_barrier(&full[i], 1);
      init_barrier(&empty[i], 2);
    }
  }
  asm volatile("barrier.cluster.arrive;\n" : :);  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
  asm volatile("barrier.cluster.wait;\n" : :);  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
  for (int i = 0; i < 4; ++i) {
    unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(i % 2 ? &full[i] : &empty[i]));
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(addr) : "memory");  // expect: prefer-cuda-ptx(info)
  }
  out[blockIdx.x] = s.tile[threadIdx.x];
}

__global__ void __cluster_dims__(2, 1, 1) k2(float* out) {
  // The barriers.
  __shared__ __align__(8) uint64_t full[4], empty[4];
  if (threadIdx.x == 0) {
    init_barrier(&full[0], 1);
    init_barrier(&empty[0], 2);
  }
  asm volatile("barrier.cluster.arrive;\n" : :);  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
  asm volatile("barrier.cluster.wait;\n" : :);  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&empty[threadIdx.x % 4]));
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(addr) : "memory");  // expect: prefer-cuda-ptx(info)
  out[blockIdx.x] = 2.0f;
}

__global__ void __cluster_dims__(2, 1, 1) k3(float* out) {
  __shared__ __align__(8) uint64_t bars[2][4];
  if (threadIdx.x == 0) {
    init_barrier(&bars[0][0], 1);
  }
  asm volatile("barrier.cluster.arrive;\n" : :);  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
  asm volatile("barrier.cluster.wait;\n" : :);  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
  out[blockIdx.x] = 3.0f;
}
