__global__ void k() {
  asm volatile("mov.u32 %0, 0xf\x41fffffffffffffffff;" : "=r"(r));
}
