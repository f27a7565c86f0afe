// prefer-intrinsic (info): griddepcontrol.wait is cudaGridDependencySynchronize() and
// griddepcontrol.launch_dependents is cudaTriggerProgrammaticLaunchCompletion() (CUDA runtime
// device API, sm_90).
__global__ void k(const float* in, float* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");  // expect: prefer-intrinsic(info)
#endif
  out[threadIdx.x] = in[threadIdx.x] * 2.0f;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");  // expect: prefer-intrinsic(info)
#endif
}
