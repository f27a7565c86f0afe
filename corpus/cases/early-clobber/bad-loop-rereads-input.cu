// early-clobber: a polling loop inside the template: the load writes %0, and the next iteration
// reads the address %1 again (later along the loop, though earlier in the text).
// gpu-launch: k<<<1, 32>>>(out: u32[32] = 0)
// gpu-bad: out[0] != 1
// gpu-good: out[0] == 1
#include <cstdint>

__device__ uint32_t wait_nonzero(uint32_t flag_addr) {
  uint32_t v;
  asm volatile("{\n\t"
               ".reg .pred again;\n\t"
               "WAIT_%=:\n\t"
               "ld.volatile.shared.u32 %0, [%1];\n\t"
               "setp.eq.u32 again, %0, 0;\n\t"
               "@again bra WAIT_%=;\n\t"
               "}"
               : "=r"(v)  // expect: early-clobber(info)
               : "r"(flag_addr)
               : "memory");
  return v;
}

__global__ void k(uint32_t* out) {
  __shared__ uint32_t flag;
  if (threadIdx.x == 0) flag = 1u;
  __syncthreads();
  out[threadIdx.x] = wait_nonzero(static_cast<uint32_t>(__cvta_generic_to_shared(&flag)));
}
