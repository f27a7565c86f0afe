// ptx-syntax: `fence.proxy.async` takes a state space (`.global`, `.shared::cta`,
// `.shared::cluster`); `.global::cta` is none of them.
// gpu: nvcc -arch=sm_90a fails: ptxas "Unknown modifier '.global::cta'" (measured 2026-12-05)
// gpu-arch: sm_90a
// gpu-bad: ptxas "Unknown modifier '.global::cta'"
__global__ void k(unsigned* out) {
  out[0] = 1;
  asm volatile("fence.proxy.async.global::cta;" ::: "memory");  // expect: ptx-syntax
  out[1] = 1;
}
