// Correct: sm_90 instructions behind NV_IF_TARGET / NV_IF_ELSE_TARGET dispatch.
// gpu-good: compiles
#include <nv/target>

__device__ void wait_for_producer_grid() {
  NV_IF_TARGET(NV_PROVIDES_SM_90, (asm volatile("griddepcontrol.wait;" ::: "memory");));  // expect: prefer-intrinsic(info)
}

__device__ void let_dependents_launch() {
  NV_IF_ELSE_TARGET(NV_PROVIDES_SM_90,
                    (asm volatile("griddepcontrol.launch_dependents;" ::: "memory");),  // expect: prefer-intrinsic(info)
                    ());
}

__global__ void k(const float* in, float* out) {
  wait_for_producer_grid();
  out[threadIdx.x] = in[threadIdx.x] + 1.0f;
  let_dependents_launch();
}
