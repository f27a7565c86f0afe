// Front end: x86 inline asm in host functions of a .cu file is not PTX and must stay silent
// ("=a", "=d", "m", %eax, $0); the device function's finding proves the file was analysed.
#include <cstdint>

static inline uint64_t read_tsc() {
  uint32_t lo, hi;
  __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

__host__ void cpu_pause() {
  asm volatile("pause" ::: "memory");
}

__host__ int xchg(int* p, int v) {
  asm volatile("xchgl %0, %1" : "+r"(v), "+m"(*p) :: "memory");
  return v;
}

__device__ unsigned sub3(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, %n2;" : "=r"(r) : "r"(a), "r"(b));  // expect: unsupported-modifier
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = sub3(v[threadIdx.x], 3u);
}

int main() {
  int x = 0;
  cpu_pause();
  return static_cast<int>(read_tsc() & 1u) + xchg(&x, 1);
}
