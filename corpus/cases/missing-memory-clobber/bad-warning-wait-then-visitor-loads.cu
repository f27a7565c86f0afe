// missing-memory-clobber (warning): the twin of `bad-info-wait-then-visitor-subscripts.cu`
// whose lambda reads memory (`return in[i];`): `vals[i]` loads the previous kernel's output
// right after the wait, with no barrier between.
template <typename F>
struct Visitor {
  F f;
  __device__ Visitor(F f) : f(f) {}
  __device__ auto operator[](int i) const { return f(i); }
};

__global__ void consume(const float* in, float* out) {
  auto vals = Visitor([=](int i) { return in[i]; });
  asm volatile("griddepcontrol.wait;");  // expect: missing-memory-clobber(warning), prefer-intrinsic(info)
  float x = vals[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = x;
}
