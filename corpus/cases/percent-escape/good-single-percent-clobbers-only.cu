// Correct: clobbers only is still "no operands": a single % is right.
// gpu-good: compiles
__device__ void leader_arrive(unsigned is_leader) {
  if (is_leader) {
    asm volatile("{\n\t"
                 ".reg .u32 %one;\n\t"
                 "mov.u32 %one, 1;\n\t"
                 "bar.arrive 1, 64;\n\t"
                 "}" ::: "memory");
  }
}

__global__ void k(float* out) {
  leader_arrive((threadIdx.x & 31) == 0);
  out[threadIdx.x] = 0.0f;
}
