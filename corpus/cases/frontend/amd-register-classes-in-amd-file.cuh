// Front end: HIP device code for AMD GPUs. The first statement is AMD asm by its mnemonic;
// in the same file, a statement whose operands take AMD's register classes (`v` VGPR, `s`
// SGPR) is AMD asm too, even with an empty template: nvcc never compiles it. The CUDA
// function's finding proves the file was analysed.
#define HOST_DEVICE __host__ __device__
#define DEVICE __device__

DEVICE inline void wait_lgkm() { asm volatile("s_waitcnt lgkmcnt(0)" ::: "memory"); }

template <typename T>
DEVICE inline void keep_in_vgpr(T& x, int stride) {
  asm volatile(" " : "+v"(x) : "s"(stride) : "memory");
}

__device__ unsigned sub3(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, %n2;" : "=r"(r) : "r"(a), "r"(b));  // expect: unsupported-modifier
  return r;
}
