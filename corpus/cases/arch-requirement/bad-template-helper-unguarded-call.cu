// arch-requirement: a template helper with cp.async.wait_group (sm_80), instantiated from a
// targets: sm_75, sm_80
// kernel that nothing guards: it is compiled for sm_75 too.
// gpu: nvcc -arch=sm_75 fails: ptxas "Feature 'cp.async.wait_group' requires .target sm_80 or higher" (measured, nvcc 13.0.88)
// gpu-arch: sm_75
// gpu-bad: ptxas "requires .target sm_80 or higher"
template <int Pending>
__device__ __forceinline__ void wait_prior() {
  asm volatile("cp.async.wait_group %0;" :: "n"(Pending) : "memory");  // expect: arch-requirement
}

__global__ void k(float* out) {
  wait_prior<0>();
  out[threadIdx.x] = 1.0f;
}
