// Programmatic dependent launch: the secondary kernel waits for the primary grid's memory with
// griddepcontrol.wait; the primary lets dependents start early. Dispatched with NV_IF_TARGET, so
// older targets compile the empty branch.
#include <nv/target>

__device__ __forceinline__ void wait_on_primary() {
  NV_IF_TARGET(NV_PROVIDES_SM_90, (asm volatile("griddepcontrol.wait;\n" ::: "memory");));  // expect: prefer-intrinsic(info)
}

__device__ __forceinline__ void release_dependents() {
  NV_IF_TARGET(NV_PROVIDES_SM_90, (asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");));  // expect: prefer-intrinsic(info)
}

__global__ void primary(float* buf, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) buf[i] = static_cast<float>(i) * 0.5f;
  release_dependents();
}

__global__ void secondary(const float* buf, float* out, int n) {
  wait_on_primary();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = buf[i] + 1.0f;
}
