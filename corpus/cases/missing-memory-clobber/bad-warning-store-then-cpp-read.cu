// missing-memory-clobber (warning): the asm writes `slot` through its shared address and the same
// function reads `slot` in C++ afterwards; without "memory" the compiler may read it before the
// asm (or reuse an older value), `volatile` or not.
// gpu: attempt: one thread stores 1 through the asm and reads `slot` back in C++; a read moved
// above the asm would give another value
// gpu: measured 2026-12-05 (nvcc 13.0.88, NVRTC, H200): not reproduced; the order was kept
// gpu-launch: k<<<1, 1>>>(out: u32[1] = 0)
// gpu-bad: out[0] != 1
// gpu-good: out[0] == 1
#include <cstdint>

__global__ void k(uint32_t* out) {
  __shared__ uint32_t slot;
  asm volatile("st.shared.u32 [%0], %1;"  // expect: missing-memory-clobber(warning)
               :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&slot))), "r"(threadIdx.x + 1u));
  out[threadIdx.x] = slot;
}
