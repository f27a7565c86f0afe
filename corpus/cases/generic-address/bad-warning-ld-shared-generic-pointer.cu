// generic-address (warning): ld.shared given a 64-bit generic pointer into shared memory. It ran
// right on sm_90, by accident: .shared instructions take shared-window addresses.
// gpu-launch: k<<<1, 128>>>(in: f32[128] = iota, out: f32[128] = 0)
// gpu-bad: out[0] == 127
// gpu-good: out[0] == 127
__device__ float read_shared(const float* slot) {
  float v;
  asm volatile("ld.shared.f32 %0, [%1];"
               : "=f"(v)
               : "l"(slot)  // expect: generic-address(info)
               : "memory");
  return v;
}

__global__ void k(const float* in, float* out) {
  __shared__ float s[128];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = read_shared(&s[127 - threadIdx.x]);
}
