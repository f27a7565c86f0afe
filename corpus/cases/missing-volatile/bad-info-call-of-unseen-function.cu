// missing-volatile (info): a PTX `call` of a function the template does not define. What the
// callee does is not in view: the OptiX SDK's getters (`_optix_get_launch_index_x` and the
// like) are called this way without `volatile` on purpose, since deleting, merging or
// hoisting a call that reads fixed state is what they want. An asm that also writes memory
// itself is still a warning.
#include <cstdint>

static __forceinline__ __device__ unsigned int launch_index_x() {
  unsigned int u0;
  asm("call (%0), _optix_get_launch_index_x, ();" : "=r"(u0) :);  // expect: missing-volatile(info)
  return u0;
}

__device__ unsigned int count_and_call(unsigned int* counter) {
  unsigned int old, v;
  asm("atom.global.add.u32 %0, [%2], 1;\n\t"  // expect: missing-volatile(warning), missing-memory-clobber
      "call (%1), _optix_get_launch_index_y, ();"
      : "=r"(old), "=r"(v) : "l"(counter));  // expect: generic-address(info)
  return old + v;
}

extern "C" __global__ void __raygen__main(unsigned int* out, unsigned int* counter) {
  for (int i = 0; i < 4; ++i) {
    out[i] = launch_index_x() + count_and_call(counter);
  }
}
