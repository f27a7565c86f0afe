// The store helper returns right after its asm: the later read of `slot` is on the other path
// (the asm never runs before it), so nothing in this function depends on the order of the
// asm's write and a C++ access. Incidental plain store: info at most.
#include <cstdint>

__device__ uint32_t publish_or_read(uint32_t* slot, uint32_t value, bool write) {
  if (write) {
    asm volatile("st.global.u32 [%0], %1;" :: "l"(slot), "r"(value)); // expect: missing-memory-clobber(info), generic-address(info)
    return 0;
  }
  return slot[0];
}

__global__ void kernel(uint32_t* slot, uint32_t* out) { out[0] = publish_or_read(slot, 1, out[1] != 0); }
