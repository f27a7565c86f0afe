// Front end: asm statements passed as macro arguments to NV_IF_ELSE_TARGET / NV_IF_TARGET from
// <nv/target>. The device branch is PTX; the host branch is not.
#include <cstdint>
#include <nv/target>

__host__ __device__ inline uint32_t lane_or_zero(uint32_t x) {
  uint32_t r = 0;
  NV_IF_ELSE_TARGET(NV_IS_DEVICE,
                    (asm volatile("and.b32 %0, %1, %n2;" : "=r"(r) : "r"(x), "r"(31u));),  // expect: unsupported-modifier
                    (r = x & 31u;));
  return r;
}

__device__ void wait_grid() {
  NV_IF_TARGET(NV_PROVIDES_SM_90,
               (asm volatile("griddepcontrol.wait;" ::: "memory");  // expect: prefer-intrinsic(info)
                uint32_t t;
                asm volatile("add.u32 %0, %1, %2;" : "=r"(t) : "r"(1u));));  // expect: operand-index
}

__global__ void k(uint32_t* v) {
  wait_grid();
  v[threadIdx.x] = lane_or_zero(v[threadIdx.x]);
}
