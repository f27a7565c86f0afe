// missing-memory-clobber (warning): a fence in a loop that polls a flag in C++: without "memory"
// the compiler may keep the flag in a register across the fence and never see it change.
// gpu: attempt: block 0 polls `flag` with a fence in the loop, block 1 sets it after about a
// millisecond; a hoisted load would make block 0 run all 1,000,000 iterations
// gpu: measured 2026-12-05 (nvcc 13.0.88, NVRTC, H200): not reproduced; the order was kept
// gpu-launch: poll<<<2, 1>>>(flag: u32[1] = 0, iters: u32[1] = 0)
// gpu-bad: iters[0] == 1000000
// gpu-good: iters[0] < 1000000
__global__ void poll(unsigned* flag, unsigned* iters) {
  if (blockIdx.x == 1) {
    long long start = clock64();
    while (clock64() - start < 2000000) {
    }
    atomicExch(flag, 1u);
    return;
  }
  unsigned n = 0;
  while (flag[0] == 0 && n < 1000000u) {
    asm volatile("fence.acq_rel.gpu;");  // expect: missing-memory-clobber(warning), prefer-cuda-ptx(info)
    ++n;
  }
  *iters = n;
}
