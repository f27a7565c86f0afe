// Front end: the host branch of NV_IF_TARGET(NV_IS_HOST, ...) / NV_IF_ELSE_TARGET is not PTX: the
// x86 asm there stays silent; the device branch is PTX.
#include <cstdint>
#include <nv/target>

__host__ __device__ inline void spin_hint() {
  NV_IF_TARGET(NV_IS_HOST, (asm volatile("pause" ::: "memory");));
}

__host__ __device__ inline uint64_t ticks() {
  NV_IF_ELSE_TARGET(NV_IS_HOST,
                    (uint32_t lo; uint32_t hi;
                     asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
                     return (static_cast<uint64_t>(hi) << 32) | lo;),
                    (uint64_t t;
                     asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));  // expect: percent-escape, prefer-cuda-ptx(info)
                     return t;));
}

__global__ void k(uint64_t* out) {
  spin_hint();
  out[threadIdx.x] = ticks();
}
