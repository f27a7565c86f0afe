// Correct: the file defaults a feature macro to 0 (`#ifndef` ... `#define ... 0`), and the
// only build there is keeps the default, so the branch holding a form public ptxas rejects
// (`.nosleep`: "Unknown modifier '.nosleep'", measured with ptxas 13.0 for sm_90a) is compiled
// by no configuration and is not checked. A build passing -DWAITS_USE_NOSLEEP=1 would compile
// it: the database says so, and then it is checked.
#ifndef WAITS_USE_NOSLEEP
#define WAITS_USE_NOSLEEP 0
#endif

__device__ int phase_done(unsigned bar, unsigned phase) {
  unsigned done;
#if WAITS_USE_NOSLEEP
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.nosleep.shared.b64 p, [%1], %2; selp.b32 %0, 1, 0, p; }"
               : "=r"(done) : "r"(bar), "r"(phase) : "memory");
#else
  done = phase;
#endif
  return done;
}
