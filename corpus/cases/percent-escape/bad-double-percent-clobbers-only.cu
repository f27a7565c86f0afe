// percent-escape (error): an asm with clobbers but no operands counts as "no operands": %%
// reaches ptxas verbatim and fails to parse.
// gpu: nvcc -arch=sm_90 fails: ptxas "Parsing error near '%'"
// gpu-bad: ptxas "Parsing error near '%'"
__device__ void arrive_if_leader(unsigned is_leader) {
  if (is_leader) {
    asm volatile("{\n\t"
                 ".reg .u32 %%one;\n\t"  // expect: percent-escape(error)
                 "mov.u32 %%one, 1;\n\t"  // expect: percent-escape(error)
                 "bar.arrive 1, 64;\n\t"
                 "}" ::: "memory");
  }
}

__global__ void k(float* out) {
  arrive_if_leader((threadIdx.x & 31) == 0);
  out[threadIdx.x] = 0.0f;
}
