// Front end: asm inside function templates (type and non-type parameters), instantiated twice.
#include <cstdint>

template <typename T, int Shift>
__device__ T scaled_add(T a, T b) {
  T r;
  asm("mad.lo.u32 %0, %1, %2, %n3;"  // expect: unsupported-modifier
      : "=r"(r)
      : "r"(a), "r"(static_cast<T>(1 << Shift)), "r"(b));
  return r;
}

template <typename T>
struct Accumulator {
  T total;
  __device__ void add(T v) { total = scaled_add<T, 2>(total, v); }
};

__global__ void k(uint32_t* v) {
  Accumulator<uint32_t> acc{0};
  acc.add(v[threadIdx.x]);
  v[threadIdx.x] = acc.total + scaled_add<uint32_t, 3>(v[threadIdx.x], 1u);
}
