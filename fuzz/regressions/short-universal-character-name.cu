__global__ void k(unsigned* p) {
  unsigned v;
  asm volatile("ld.global.u32 %0, [%1];\u32 ’0, [%1];" : "=r"(v) : "l"(p));
  *p = v;
}
