// Not loud: the only C++ access beside the barrier is in an `#ifndef` branch the file's own
// `#define` just above rules out: no build compiles it.
__global__ void k(float* out) {
  __shared__ float tile[64];
  asm volatile("bar.sync 1, 64;");  // expect: missing-memory-clobber(info)
#define USE_REGISTERS
#ifndef USE_REGISTERS
  tile[threadIdx.x ^ 1] = 2.0f;
#else
  float v = 2.0f;
#endif
  (void)tile;
  (void)v;
  (void)out;
}
