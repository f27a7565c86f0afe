// arch-requirement: no targets are configured, but the file asks NV_IF_TARGET(NV_PROVIDES_SM_90)
// before a cluster barrier, so it is built for targets below sm_90; %cluster_ctarank (sm_90) in
// the same kernel is read without any guard.
// gpu: nvcc -arch=sm_80 fails: ptxas rejects %cluster_ctarank below sm_90
#include <nv/target>

__global__ void ranks(unsigned* out) {
  NV_IF_TARGET(NV_PROVIDES_SM_90, (asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");));
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));  // expect: arch-requirement, prefer-cuda-ptx(info)
  out[threadIdx.x] = r;
}
