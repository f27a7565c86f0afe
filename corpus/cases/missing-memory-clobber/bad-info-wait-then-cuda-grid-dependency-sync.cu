// missing-memory-clobber (info): `cudaGridDependencySynchronize()` follows the wait; CUDA's
// header implements it as `asm volatile("griddepcontrol.wait;" ::: "memory")`, a compiler
// barrier, so the load after it cannot move above the first wait.
__global__ void consume(const float* in, float* out) {
  asm volatile("griddepcontrol.wait;");  // expect: missing-memory-clobber(info), prefer-intrinsic(info)
  cudaGridDependencySynchronize();
  out[threadIdx.x] = in[threadIdx.x];
}
