// address-register-width: the global side of cp.async given a truncated 32-bit address. The
// shared side is correctly 32-bit. ptxas (nvcc 13.0, sm_90a) accepts this form without a word, so
// the truncated address reaches the GPU.
// gpu: compiles for sm_80 and sm_90a (ptxas accepts the 32-bit global address); launch stage_tile<<<1,64>>>(src, dst) with device buffers: "an illegal memory access was encountered" (measured on an H200: the source buffer was at 0x7f30bbe00000)
// gpu-launch: stage_tile<<<1, 64>>>(src: i32[256] = iota, dst: i32[256] = 0)
// gpu-bad: fault
// gpu-good: dst[0] == 252 && dst[255] == 3
#include <cstdint>

__device__ __forceinline__ void copy16(void* smem_dst, const void* gmem_src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"
               :: "r"(dst),
                  "r"((unsigned)(size_t)gmem_src)  // expect: address-register-width
               : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
#endif
}

__global__ void stage_tile(const int4* src, int4* dst) {
  __shared__ int4 tile[64];
  copy16(&tile[threadIdx.x], &src[blockIdx.x * 64 + threadIdx.x]);
  __syncthreads();
  dst[blockIdx.x * 64 + threadIdx.x] = tile[63 - threadIdx.x];
}
