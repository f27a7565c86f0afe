// ptx-syntax: `cp.async.arrive` (meant: `cp.async.mbarrier.arrive`) has two parts `cp.async` does
// not take, `.arrive` and `.b64`: one instruction, one report (the second part is a label).
#include <cstdint>

__device__ void arrive_on_copies(uint32_t bar) {
  asm volatile("cp.async.arrive.shared.b64 [%0];" :: "r"(bar) : "memory");  // expect: ptx-syntax
}
