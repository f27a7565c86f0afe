// arch-requirement: griddepcontrol needs sm_90; the guard admits sm_80..sm_89.
// gpu: nvcc -arch=sm_80 fails in ptxas (griddepcontrol requires sm_90); sm_75 and sm_90 build
// gpu-arch: sm_80
// gpu-bad: ptxas "griddepcontrol"
__device__ void wait_for_producer_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("griddepcontrol.wait;" ::: "memory");  // expect: arch-requirement, prefer-intrinsic(info)
#endif
}

__global__ void k(const float* in, float* out) {
  wait_for_producer_grid();
  out[threadIdx.x] = in[threadIdx.x] * 2.0f;
}
