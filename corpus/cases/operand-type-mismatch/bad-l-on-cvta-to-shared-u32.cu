// operand-type-mismatch: `cvta.to.shared.u32` converts a 32-bit address; a 64-bit "l"
// generic pointer does not fit it (use `cvta.to.shared.u64` and truncate, or
// `__cvta_generic_to_shared`).
// gpu: nvcc -arch=sm_90a fails: ptxas "Arguments mismatch for instruction 'cvta.to'" (measured 2026-12-05)
// gpu-arch: sm_90a
// gpu-bad: ptxas "Arguments mismatch for instruction 'cvta.to'"
__global__ void k(unsigned* out) {
  __shared__ int tile[32];
  tile[threadIdx.x] = 1;
  unsigned addr;
  asm("cvta.to.shared.u32 %0, %1;"  // expect: prefer-intrinsic(info)
      : "=r"(addr)
      : "l"(reinterpret_cast<unsigned long long>(&tile[threadIdx.x])));  // expect: operand-type-mismatch
  out[threadIdx.x] = addr;
}
