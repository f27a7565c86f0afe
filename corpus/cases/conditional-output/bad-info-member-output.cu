// conditional-output (info): a masked-load helper writes the members of `data` only under
// its predicate. The rule follows the reads of plain variables only: where `data.x` and
// `data.y` are read, and whether under the predicate, is not known, so it says so at info.
#include <cstdint>

__device__ uint2 load_pred(const uint2* p, bool pred) {
  uint2 data;
  asm volatile(  // expect: missing-memory-clobber(info)
      "{\n.reg .pred p;\nsetp.ne.b32 p, %3, 0;\n@p ld.global.v2.u32 {%0, %1}, [%2];\n}"  // expect: conditional-output(info), conditional-output(info)
      : "=r"(data.x), "=r"(data.y)
      : "l"(p), "r"((int)pred));  // expect: generic-address(info)
  return data;
}

__global__ void copy(const uint2* in, uint2* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint2 v = load_pred(in + i, i < n);
  if (i < n) out[i] = v;
}
