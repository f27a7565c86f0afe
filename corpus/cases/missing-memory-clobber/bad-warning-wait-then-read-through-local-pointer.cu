// missing-memory-clobber (warning): after the wait the kernel reads the previous grid's output
// through a local pointer (not a local array): without "memory" the compiler may hoist the
// load above the wait and read the data before the producer grid has finished writing it.
__global__ void consumer(const float* in, float* out) {
  const float* row = in + blockIdx.x * 32;
  asm volatile("griddepcontrol.wait;");  // expect: missing-memory-clobber(warning), prefer-intrinsic(info)
  out[threadIdx.x] = row[threadIdx.x];
}
