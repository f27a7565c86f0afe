// Front end: an extended `[] __device__ (...)` lambda defined in a host function is device code:
// its asm is PTX even though the enclosing function has no __device__.
// gpu: compile with --extended-lambda
template <typename F>
__global__ void apply(unsigned* v, F f) {
  v[threadIdx.x] = f(v[threadIdx.x]);
}

void launch_add_bias(unsigned* v, unsigned bias) {
  auto add_bias = [bias] __device__(unsigned x) {
    unsigned r;
    asm("add.u32 %0, %1, %n2;" : "=r"(r) : "r"(x), "r"(bias));  // expect: unsupported-modifier
    return r;
  };
  apply<<<1, 32>>>(v, add_bias);
}

void launch_scale(unsigned* v) {
  apply<<<1, 32>>>(v, [] __host__ __device__(unsigned x) -> unsigned {
#if defined(__CUDA_ARCH__)
    unsigned r;
    asm("mul.lo.u32 %0, %1, %2;" : "=r"(r) : "r"(x));  // expect: operand-index
    return r;
#else
    return x * 3u;
#endif
  });
}
