// missing-memory-clobber (warning): a wait whose next statement reads the tile in C++ (no
// __syncthreads() in between): without "memory" the read may move above the wait.
// gpu: attempt: 128 threads copy src into the tile with cp.async, wait, and read it in C++; a
// read moved above the wait would give stale shared memory
// gpu: measured 2026-12-05 (nvcc 13.0.88, NVRTC, H200): not reproduced; the order was kept
// gpu-launch: stage_then_read<<<1, 128>>>(src: f32[128] = iota, dst: f32[128] = -1)
// gpu-bad: dst[5] != 5
// gpu-good: dst[5] == 5 && dst[127] == 127
#include <cstdint>

__global__ void stage_then_read(const float* src, float* dst) {
  __shared__ float tile[128];
  uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(slot), "l"(__cvta_generic_to_global(src + threadIdx.x)) : "memory");
  asm volatile("cp.async.wait_all;");  // expect: missing-memory-clobber(warning)
  dst[threadIdx.x] = tile[threadIdx.x];
}
