// missing-memory-clobber (warning): a release store and an acquire load that publish `data`
// between two blocks, neither with "memory": the compiler may sink the C++ store of `data` below
// the release, or lift the C++ read of `data` above the acquire.
// gpu: attempt: block 1 writes data[0] = 42 and releases `flag`; block 0 acquires it and copies
// data[0]; a reordered access would leave out[0] at 0
// gpu: measured 2026-12-05 (nvcc 13.0.88, NVRTC, H200): not reproduced; the order was kept
// gpu-launch: k<<<2, 1>>>(flag: u32[1] = 0, data: u32[1] = 0, out: u32[1] = 7)
// gpu-bad: out[0] != 42
// gpu-good: out[0] == 42
__global__ void k(unsigned* flag, unsigned* data, unsigned* out) {
  if (blockIdx.x == 1) {
    data[0] = 42;
    asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(__cvta_generic_to_global(flag)), "r"(1u));  // expect: missing-memory-clobber(warning)
    return;
  }
  unsigned ready = 0;
  do {
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(ready) : "l"(__cvta_generic_to_global(flag)));  // expect: missing-memory-clobber(warning)
  } while (ready == 0);
  out[0] = data[0];
}
