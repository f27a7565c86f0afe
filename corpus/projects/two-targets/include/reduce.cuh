// A header helper the attention sources include: `redux.sync` needs sm_80, which both of its
// targets have.
#pragma once
__device__ __forceinline__ unsigned warp_sum(unsigned v) {
  unsigned r;
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
  return r;
}
