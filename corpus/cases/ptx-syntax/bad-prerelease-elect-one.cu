// ptx-syntax: `elect.one.sync` is pre-release syntax; the PTX ISA names it `elect.sync`.
// gpu: nvcc -arch=sm_90a fails: ptxas "Not a name of any known instruction: 'elect.one'" (measured 2026-12-05)
// gpu-arch: sm_90a
// gpu-bad: ptxas "Not a name of any known instruction: 'elect.one'"
__device__ unsigned elect_one() {
  unsigned lane = 0, elected = 0;
  asm volatile(
      "{\n"
      " .reg .b32 %%rx;\n"
      " .reg .pred %%px;\n"
      " elect.one.sync %%rx|%%px, %2;\n"  // expect: ptx-syntax
      " @%%px mov.s32 %1, 1;\n"
      " mov.s32 %0, %%rx;\n"
      "}\n"
      : "+r"(lane), "+r"(elected)
      : "r"(0xffffffffu));
  return elected + lane;
}

__global__ void k(unsigned* out) { out[threadIdx.x] = elect_one(); }
