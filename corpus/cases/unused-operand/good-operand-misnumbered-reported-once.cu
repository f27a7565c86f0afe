// unused-operand: the template names `%2` for the cache policy but the statement has two
// operands (%0 and %1), so the policy input `%1` is unused only because of that mistake.
// `operand-index` reports the statement once; unused-operand does not report the symptom.
#include <cstdint>

__device__ void prefetch_with_policy(const void* src, uint64_t policy) {
  asm volatile("cp.async.bulk.prefetch.L2.global.L2::cache_hint [%0], 16, %2;"  // expect: operand-index(error)
               :: "l"(src), "l"(policy) : "memory");  // expect: generic-address(info)
}
