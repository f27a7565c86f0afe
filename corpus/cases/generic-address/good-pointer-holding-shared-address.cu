// Correct: this file keeps shared-window addresses in pointer variables (converted with
// cvta.to.shared into a uint64_t*), so a pointer given to ld.shared / st.shared here is a shared
// address, not a generic one.
// gpu: compiles for sm_90 (measured, nvcc 13.0.88); launched, out[i] should equal in[i] after the round trip through shared memory
// gpu-launch: k<<<1, 32>>>(in: u64[32] = iota, out: u64[32] = 0)
// gpu-good: out[31] == 31
#include <cstdint>

__device__ __forceinline__ uint64_t* to_shared_window(uint64_t* generic) {
  uint64_t* window;
  asm volatile("cvta.to.shared.u64 %0, %1;" : "=l"(window) : "l"(generic) : "memory");  // expect: prefer-intrinsic(info)
  return window;
}

__device__ __forceinline__ void put(uint64_t* window, uint64_t v) {
  asm volatile("st.volatile.shared.u64 [%0], %1;" :: "l"(window), "l"(v) : "memory");
}

__device__ __forceinline__ uint64_t get(uint64_t* window) {
  uint64_t v;
  asm volatile("ld.volatile.shared.u64 %0, [%1];" : "=l"(v) : "l"(window) : "memory");
  return v;
}

__global__ void k(const uint64_t* in, uint64_t* out) {
  __shared__ uint64_t s[32];
  uint64_t* slot = to_shared_window(&s[threadIdx.x]);
  put(slot, in[threadIdx.x]);
  __syncwarp();
  out[threadIdx.x] = get(slot);
}
