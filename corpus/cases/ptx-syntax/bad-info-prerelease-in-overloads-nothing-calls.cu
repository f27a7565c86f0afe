// ptx-syntax (info): two overloads of an inline helper hold pre-release `setctarank`; the name
// appears twice, but only where each is defined, and nothing calls either: nvcc compiles
// neither, so ptxas never sees them. Info until something calls one.
// gpu: nvcc -arch=sm_90a compiles: neither overload is ever compiled (measured 2026-12-05)
// gpu-arch: sm_90a
// gpu-bad: compiles
__forceinline__ __device__ unsigned remote_address(unsigned addr, unsigned rank) {
  unsigned remote;
  asm volatile("setctarank.shared.u32 %0, %1, %2;"  // expect: ptx-syntax(info)
               : "=r"(remote)
               : "r"(addr), "r"(rank));
  return remote;
}

__forceinline__ __device__ unsigned remote_address(const void* ptr, unsigned rank) {
  unsigned remote;
  asm volatile("setctarank.shared.u32 %0, %1, %2;"  // expect: ptx-syntax(info)
               : "=r"(remote)
               : "r"(static_cast<unsigned>(reinterpret_cast<unsigned long long>(ptr))), "r"(rank));
  return remote;
}

__global__ void k(unsigned* v) { v[0] = v[1] + v[2]; }
