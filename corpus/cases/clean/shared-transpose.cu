// A 32x32 tile transpose through shared memory with explicit ld.shared / st.shared on 32-bit
// shared-window addresses, including vector forms and a constant offset in the brackets.
#include <cstdint>

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void st_shared_f32(uint32_t a, float v) {
  asm volatile("st.shared.f32 [%0], %1;\n" :: "r"(a), "f"(v) : "memory");
}

__device__ __forceinline__ float ld_shared_f32(uint32_t a) {
  float v;
  asm volatile("ld.shared.f32 %0, [%1];\n" : "=f"(v) : "r"(a) : "memory");
  return v;
}

__device__ __forceinline__ float2 ld_shared_v2_two_rows_down(uint32_t a) {
  float2 v;
  asm volatile("ld.shared.v2.f32 {%0, %1}, [%2+264];\n" : "=f"(v.x), "=f"(v.y) : "r"(a) : "memory");
  return v;
}

__global__ void __launch_bounds__(1024) transpose32(const float* in, float* out, int n, float2* peek) {
  __shared__ __align__(16) float tile[32][33];
  const int x = blockIdx.x * 32 + threadIdx.x;
  const int y = blockIdx.y * 32 + threadIdx.y;
  st_shared_f32(smem_u32(&tile[threadIdx.y][threadIdx.x]), in[y * n + x]);
  __syncthreads();
  const int tx = blockIdx.y * 32 + threadIdx.x;
  const int ty = blockIdx.x * 32 + threadIdx.y;
  out[ty * n + tx] = ld_shared_f32(smem_u32(&tile[threadIdx.x][threadIdx.y]));
  if (threadIdx.y == 0 && threadIdx.x < 16) {
    peek[blockIdx.x * 16 + threadIdx.x] = ld_shared_v2_two_rows_down(smem_u32(&tile[0][2 * threadIdx.x]));
  }
}
