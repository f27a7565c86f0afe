// ptx-syntax: a .v4 load with only three destination registers.
// gpu: nvcc -arch=sm_90 fails: ptxas "Illegal vector size: 3", "Argument vector size mismatch for instruction 'ld'"
// gpu-bad: ptxas "Illegal vector size: 3"
// gpu-bad: ptxas "Argument vector size mismatch for instruction 'ld'"
__device__ float3 load3(const float4* p) {
  float3 v;
  asm volatile("ld.global.v4.f32 {%0, %1, %2}, [%3];"  // expect: ptx-syntax
               : "=f"(v.x), "=f"(v.y), "=f"(v.z)
               : "l"(__cvta_generic_to_global(p))
               : "memory");
  return v;
}

__global__ void k(const float4* in, float3* out) {
  out[threadIdx.x] = load3(in + threadIdx.x);
}
