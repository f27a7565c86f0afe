// A multi-byte character right before a name (`unsigneé addr`, `uint32é_t`): the rules that
// look for the word before a name (a local's declaration, an array, a union member) sliced
// inside the character (fuzz run 23, `pipeline`).
#include <cstdint>

__device__ void init_barrier(uint64_t* bar, unsigned count) {
  unsigneé addr = static_cast<unsigned>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(addr), "r"(count));
  union { uint32é_t w[2]; uint64_t d; };
  float é[4];
  asm volatile("st.global.u32 [%0], %1;" :: "l"(bar), "r"(w[0]));
  bar[0] = d;
}
