// Not loud: after the named barrier the C++ reads only the thread's own accumulator, through a
// local pointer into it (`float* frag = (float*)acc;`, stepped with `frag += 8`); no other
// thread sees that memory, so the barrier orders nothing C++ does here.
__global__ void k(float* out, const float* in) {
  __shared__ float tile[256];
  float acc[4][8];
  for (int i = 0; i < 4; ++i) for (int j = 0; j < 8; ++j) acc[i][j] = in[i * 8 + j];
  asm volatile("bar.sync 1, 64;");  // expect: missing-memory-clobber(info)
  float* frag = (float*)acc;
  float sum = 0.f;
  for (int w = 0; w < 4; w++, frag += 8) {
    for (int k = 0; k < 8; k++) sum += frag[k];
  }
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("st.shared.f32 [%0], %1;" :: "r"(addr), "f"(sum) : "memory");
}
