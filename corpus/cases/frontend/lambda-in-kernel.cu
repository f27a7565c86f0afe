// Front end: plain lambdas defined inside a __global__ function are device code; their asm is PTX.
__global__ void k(const unsigned* in, unsigned* out) {
  auto load = [](const unsigned* p) {
    unsigned v;
    asm volatile("ld.u32 %0, [%1];"
                 : "=r"(v)
                 : "r"((unsigned)(size_t)p)  // expect: address-register-width
                 : "memory");
    return v;
  };
  unsigned calls = 0;
  auto counted = [&calls](unsigned x) mutable -> unsigned {
    ++calls;
    unsigned r;
    asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(x));  // expect: operand-index
    return r;
  };
  out[threadIdx.x] = load(in + threadIdx.x) + counted(calls);
}
