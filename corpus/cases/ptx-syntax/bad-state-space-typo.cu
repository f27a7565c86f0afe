// ptx-syntax: a misspelt state space (st.gloabl); the suggestion is st.global.
// gpu: nvcc -arch=sm_90 fails: ptxas "Unknown modifier '.gloabl'" (measured)
// gpu-bad: ptxas "Unknown modifier '.gloabl'"
__device__ void put(unsigned* p, unsigned v) {
  asm volatile("st.gloabl.u32 [%0], %1;"  // expect: ptx-syntax
               :: "l"(p), "r"(v)
               : "memory");
}

__global__ void k(unsigned* out) {
  put(out + threadIdx.x, threadIdx.x);
}
