// An example with the inline-PTX mistakes ptxguard finds. Try: ptxguard check examples/
#include <cstdint>

// Reads a counter from global memory: the address is passed in a 32-bit register.
__device__ __forceinline__ uint32_t load_counter(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "r"((uint32_t)(size_t)p));
  return v;
}

// Bumps a bin; the result is unused, and the asm is neither volatile nor clobbers memory.
__device__ __forceinline__ void bump(uint32_t* bin) {
  uint32_t old;
  asm("atom.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(bin));
}

// A temporary register declared outside braces: fine once, a duplicate when inlined twice.
__device__ __forceinline__ uint32_t add_one(uint32_t x) {
  uint32_t y;
  asm(".reg .u32 t1;\n\t"
      "add.u32 t1, %1, 1;\n\t"
      "mov.u32 %0, t1;" : "=r"(y) : "r"(x));
  return y;
}

__device__ __forceinline__ uint32_t lane_id() {
  uint32_t lane;
  asm volatile("mov.u32 %0, %laneid;" : "=r"(lane));
  return lane;
}

__global__ void histogram(const uint8_t* data, int n, uint32_t* bins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    bump(&bins[data[i]]);
  }
  if (threadIdx.x == 0 && lane_id() == 0) {
    bins[0] = add_one(add_one(load_counter(bins)));
  }
}
