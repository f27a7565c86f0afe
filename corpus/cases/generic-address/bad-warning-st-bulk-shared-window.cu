// generic-address (warning): `st.bulk.weak` without `.shared::cta` addresses generic memory, but
// the operand is a 32-bit shared-window offset. ptxas 13.0 accepts the 32-bit register (sm_100a),
// so only the ISA says it is wrong: the offset is not the generic address of the buffer.
#include <cstdint>

__device__ void zero_tile(void* smem, uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
  uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  asm volatile("st.bulk.weak [%0], %1, 0;" :: "r"(dst), "l"(uint64_t(bytes)) : "memory");  // expect: generic-address(info)
#endif
}
