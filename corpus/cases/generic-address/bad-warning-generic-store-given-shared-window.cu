// generic-address (warning): a generic `st.u32` given the 64-bit result of
// `__cvta_generic_to_shared`: that is a shared-window offset, not a generic address.
#include <cstdint>

__device__ void put(uint32_t* smem_slot, uint32_t v) {
  asm volatile("st.u32 [%0], %1;" :: "l"(__cvta_generic_to_shared(smem_slot)), "r"(v) : "memory");  // expect: generic-address(info)
}
