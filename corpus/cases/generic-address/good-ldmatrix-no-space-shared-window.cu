// generic-address: a shared-window offset given to `ldmatrix` without a state space: ptxas takes
// its 32-bit address as shared (measured with nvcc 13.0), so this is right.
#include <cstdint>

__device__ void load_fragment(const void* smem, uint32_t (&r)[4]) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(a)
               : "memory");
}
