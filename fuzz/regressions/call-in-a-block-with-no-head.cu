__device__ void swab(unsigned x) {
  asm volatile("prmt.b32 %0, %0, 0, 0x0123;" :: "r"(x));
}
// A string in the head reads as a linkage block: the call's block has no head of its own.
void k(int* s"l", unsigned b) {
  {
    swab(b);
  }
}
