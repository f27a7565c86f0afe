// missing-memory-clobber (info): two kernels each define a lambda named `sync_smem`; the one
// holding this barrier is called in `combine` only, where the barrier's neighbours are a
// `__syncthreads()` and asm. The store beside `dispatch`'s own `sync_smem()` call is not beside
// this asm: a lambda's calls are looked for in the function that defines it. A trailing
// return type (`[&]() -> int* {`) is no member access either.
__global__ void dispatch(int* out) {
  auto sync_smem = [=]() { __syncthreads(); };
  out[threadIdx.x] = 1;
  sync_smem();
}

__global__ void combine(int* out) {
  auto sync_smem = [=]() { asm volatile("bar.sync 2, 128;"); };  // expect: missing-memory-clobber(info)
  auto slot = [&](int i) -> int* { return out + i; };
  __syncthreads();
  sync_smem();
  __syncthreads();
  *slot(threadIdx.x) = 2;
}
