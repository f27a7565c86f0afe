// generic-address (info): st.global given a plain pointer expression.
__device__ void store4(uint4* out, int i, uint4 v) {
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};"
               :: "l"(out + i),  // expect: generic-address(info)
                  "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}

__global__ void k(const uint4* in, uint4* out) {
  store4(out, threadIdx.x, in[threadIdx.x]);
}
