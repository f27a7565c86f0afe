// Front end: asm in nested, inline and anonymous namespaces.
namespace outer {
namespace inner {
__device__ unsigned a(unsigned x) {
  unsigned r;
  asm("add.u32 %0, %1, %n1;" : "=r"(r) : "r"(x));  // expect: unsupported-modifier
  return r;
}
}  // namespace inner

inline namespace v2 {
__device__ unsigned b(unsigned x) {
  unsigned r;
  asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(x));  // expect: operand-index
  return r;
}
}  // namespace v2
}  // namespace outer

namespace {
__device__ unsigned c(unsigned x) {
  unsigned r;
  asm("mul.lo.u32 %0, %1, %c1;" : "=r"(r) : "r"(x));  // expect: unsupported-modifier
  return r;
}
}  // namespace

namespace outer::inner::deep {
__device__ unsigned d(unsigned x) {
  unsigned r;
  asm("sub.u32 %0, %1, %a1;" : "=r"(r) : "r"(x));  // expect: unsupported-modifier
  return r;
}
}  // namespace outer::inner::deep

__global__ void k(unsigned* v) {
  unsigned x = v[threadIdx.x];
  v[threadIdx.x] = outer::inner::a(x) + outer::b(x) + c(x) + outer::inner::deep::d(x);
}
