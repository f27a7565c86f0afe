// missing-memory-clobber (warning): a release-side fence stays a warning even when
// __syncthreads() follows: the C++ store before it may still sink below the fence, which then
// does not order it for the async proxy.
__global__ void publish_tile(float* out) {
  __shared__ float tile[64];
  tile[threadIdx.x % 64] = static_cast<float>(threadIdx.x);
  asm volatile("fence.proxy.async.shared::cta;");  // expect: missing-memory-clobber(warning), prefer-cuda-ptx(info)
  __syncthreads();
  out[threadIdx.x] = tile[0];
}
