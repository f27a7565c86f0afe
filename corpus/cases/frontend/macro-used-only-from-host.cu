// Front end: an asm macro used only from a host function is host code: nothing in it may be
// flagged, even though it would be wrong as PTX. The device function below is PTX and its
// finding proves the file was analysed.
#include <cstdint>

#define READ_TSC(lo, hi) asm volatile("rdtsc" : "=a"(lo), "=d"(hi))

uint64_t host_ticks() {
  uint32_t lo, hi;
  READ_TSC(lo, hi);
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

__device__ unsigned twice(unsigned x) {
  unsigned r;
  asm("add.u32 %0, %1, %n1;" : "=r"(r) : "r"(x));  // expect: unsupported-modifier
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = twice(v[threadIdx.x]);
}
