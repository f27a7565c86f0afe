// An opcode spelled by a macro per architecture: the `#else` is for GPUs older than sm_70,
// which no target of the toolkit compiles for (CUDA 13: sm_75 and newer), so the eviction-hint
// form is the one compiled. The dead branch's old spelling is not judged.
#include <cstdint>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
#define LOAD_KEEP "ld.global.L1::evict_last.u32" // expect: prefer-cuda-ptx(info)
#else
#define LOAD_KEEP "ld.global.evict_last_old_form.u32"
#endif

__device__ uint32_t load(const uint32_t* p) {
  uint32_t v;
  asm(LOAD_KEEP " %0, [%1];" : "=r"(v) : "l"(__cvta_generic_to_global(p)) : "memory");
  return v;
}

__global__ void kernel(const uint32_t* in, uint32_t* out) { out[0] = load(in); }
