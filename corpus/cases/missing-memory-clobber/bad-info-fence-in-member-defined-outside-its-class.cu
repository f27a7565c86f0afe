// missing-memory-clobber (info): `Producer::send` is defined outside its class, after
// `Producer::load`, and nothing in the file calls it. Its definition's name is not a call, so
// the stores at the end of `load` are not beside the fence: no C++ access it orders is in view.
struct Producer {
  float* staging;
  __device__ void load(const float* src);
  __device__ void send();
};

__device__ void Producer::load(const float* src) {
  staging[threadIdx.x] = src[threadIdx.x];
}

__device__ inline void Producer::send() {
  asm volatile("fence.release.cluster;");  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
}
