// Front end: asm in class bodies: an inline member function, a static member, a constructor and
// an operator.
struct Counter {
  unsigned value;

  __device__ explicit Counter(unsigned start) {
    asm("mov.u32 %0, %1;" : "=r"(value) : "r"(start), "r"(start));  // expect: unused-operand(info)
  }

  __device__ void add(unsigned d) {
    asm("add.u32 %0, %0, %n1;" : "+r"(value) : "r"(d));  // expect: unsupported-modifier
  }

  __device__ static unsigned twice(unsigned x) {
    unsigned r;
    asm("add.u32 %0, %1, %1, %1;" : "=r"(r) : "r"(x));  // expect: ptx-syntax
    return r;
  }

  __device__ Counter& operator+=(unsigned d) {
    asm("add.u32 %0, %0, %[dd];" : "+r"(value) : [d] "r"(d));  // expect: operand-index
    return *this;
  }
};

__global__ void k(unsigned* v) {
  Counter c(v[threadIdx.x]);
  c.add(2u);
  c += Counter::twice(3u);
  v[threadIdx.x] = c.value;
}
