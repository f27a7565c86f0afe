// missing-volatile, info only: a `.relaxed` load outside a loop orders nothing, so merging two
// of them or dropping one whose value is unused is what the memory model allows anyway.
__device__ unsigned read_peer(const unsigned* peer) {
  unsigned v;
  asm("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(peer));  // expect: missing-volatile(info), missing-memory-clobber(info), generic-address(info)
  return v;
}
