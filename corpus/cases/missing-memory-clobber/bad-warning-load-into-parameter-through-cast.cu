// missing-memory-clobber (warning): the asm's output is memory behind a parameter written
// through a cast (`((unsigned*)buf)[0]`), not a local: the later store `buf[1] = 0` does not
// need the load's result, and may alias the shared memory it reads.
__device__ void copy_first(unsigned* buf, unsigned addr) {
  asm("ld.shared.u32 %0, [%1];" : "=r"(((unsigned*)buf)[0]) : "r"(addr));  // expect: missing-memory-clobber(warning)
  buf[1] = 0;
}
