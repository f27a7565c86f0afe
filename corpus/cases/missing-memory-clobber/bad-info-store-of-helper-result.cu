// missing-memory-clobber (info): the helper's asm reads shared memory without "memory", and
// the only C++ access beside its call stores the call's own result (`state[i] = sbox(...)`):
// the store needs the load's value, so it runs after the load whatever the clobbers.
__device__ __forceinline__ unsigned sbox(unsigned x) {
  unsigned r;
  asm("{\n\t.reg .u32 t;\n\tand.b32 t, %1, 255;\n\tld.shared.u8 %0, [t];\n\t}" : "=r"(r) : "r"(x));  // expect: missing-memory-clobber(info)
  return r;
}

__global__ void permute(unsigned* state) {
  for (int i = 0; i < 8; ++i) {
    state[i] = sbox(state[i]) ^ 0x5au;
  }
}
