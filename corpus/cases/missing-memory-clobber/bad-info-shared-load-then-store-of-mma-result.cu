// missing-memory-clobber (info): `ldmatrix` reads shared memory without "memory", but the only
// C++ access after it stores what the next asm (`mma.sync`) computed from its fragments: that
// store needs the load's result through the mma, so it cannot move above the load. Nothing
// beside it is left to order.
__global__ void gemm_tile(const unsigned* __restrict__ a_frag_src, float* C) {
  __shared__ unsigned short tile[16 * 16];
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  unsigned short a_frag[8];
  unsigned b[2] = {a_frag_src[0], a_frag_src[1]};
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(tile + (threadIdx.x % 16) * 16));
  asm("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"  // expect: missing-memory-clobber(info)
      : "=r"(((unsigned*)(a_frag + 0))[0]), "=r"(((unsigned*)(a_frag + 0))[1]),
        "=r"(((unsigned*)(a_frag + 0))[2]), "=r"(((unsigned*)(a_frag + 0))[3])
      : "r"(addr));
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
               : "=f"(acc[0]), "=f"(acc[1]), "=f"(acc[2]), "=f"(acc[3])
               : "r"(((unsigned*)a_frag)[0]), "r"(((unsigned*)a_frag)[1]),
                 "r"(((unsigned*)a_frag)[2]), "r"(((unsigned*)a_frag)[3]), "r"(b[0]), "r"(b[1]),
                 "f"(acc[0]), "f"(acc[1]), "f"(acc[2]), "f"(acc[3]));
  C[threadIdx.x] = acc[0] + acc[1] + acc[2] + acc[3];
}
