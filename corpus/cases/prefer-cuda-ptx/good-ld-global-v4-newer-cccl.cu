// Correct for the default CCCL 3.0: the .v4 forms of cuda::ptx::ld/st arrived in CCCL 3.1.
__device__ uint4 load4(const uint4* p) {
  uint4 v;
  asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(__cvta_generic_to_global(p))
               : "memory");
  return v;
}

__device__ void store4(uint4* p, uint4 v) {
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};"
               :: "l"(__cvta_generic_to_global(p)), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}

__global__ void k(const uint4* in, uint4* out) {
  store4(out + threadIdx.x, load4(in + threadIdx.x));
}
