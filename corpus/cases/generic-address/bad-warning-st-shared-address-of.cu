// generic-address (warning): st.shared given the generic address of a __shared__ array element.
// gpu-launch: k<<<1, 64>>>(in: u32[64] = iota, out: u32[64] = 0)
// gpu-bad: out[0] == 63
// gpu-good: out[0] == 63
__global__ void k(const unsigned* in, unsigned* out) {
  __shared__ unsigned s[64];
  asm volatile("st.shared.u32 [%0], %1;"
               :: "l"(&s[threadIdx.x]),  // expect: generic-address(info)
                  "r"(in[threadIdx.x])
               : "memory");
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}
