// Front end: asm directly inside kernels declared with __launch_bounds__, __restrict__ and
// __grid_constant__-style decorations that tree-sitter does not know.
struct Params {
  unsigned scale;
};

__global__ void __launch_bounds__(256) k1(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  unsigned r;
  asm("add.u32 %0, %1, %n1;" : "=r"(r) : "r"(in[threadIdx.x]));  // expect: unsupported-modifier
  out[threadIdx.x] = r;
}

__global__ void __launch_bounds__(128, 4) k2(const __grid_constant__ Params p, unsigned* out) {
  unsigned r;
  asm("mul.lo.u32 %0, %1, %2;" : "=r"(r) : "r"(p.scale));  // expect: operand-index
  out[threadIdx.x] = r;
}

extern "C" __global__ void __launch_bounds__(64) k3(unsigned* out) {
  unsigned r;
  asm("mov.u32 %0, %c1;" : "=r"(r) : "r"(threadIdx.x));  // expect: unsupported-modifier
  out[threadIdx.x] = r;
}
