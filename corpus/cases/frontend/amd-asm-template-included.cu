// Front end: HIP device code for AMD GPUs in a file with no AMD mnemonic of its own. The
// first statement's template is another file's text (an `#include` inside the parentheses)
// and its operands take AMD's register classes (`v` VGPR, `s` SGPR): AMD asm, never compiled
// by nvcc. The next two open with `;`, AMD asm's comment character, and go on with no PTX
// instruction. A template opening with `;` that goes on with PTX stays PTX, and so does an
// included template with nvcc's letters: its `"+r"` on a 64-bit pointer is still wrong. The
// findings prove the file was analysed.
#define DEVICE inline __device__

template <typename T>
DEVICE void block_gemm(void* smem, int& loop_cnt, T& c0, T& c1) {
  asm volatile(
#define UK_MFMA UK_MFMA_BF16
#include "inc/uk_gemm.inc"
#undef UK_MFMA
      : [smem_] "+r"(smem), [s_loop_cnt] "+s"(loop_cnt), [c0] "+v"(c0), [c1] "+v"(c1)
      : [sld_a_base] "n"(0)
      : "memory");
}

DEVICE void hot_loop_markers() {
  asm volatile(";; HotLoop Start ;;");
  asm volatile(";;# ASM_SCOPE_END");
}

__device__ void fence_after_empty_statement() {
  asm volatile(";\n\tmembar.gl;" ::: "memory");  // expect: prefer-intrinsic(info)
}

__device__ void included_ptx(int* p) {
  asm volatile(
#include "inc/ptx_body.inc"
      : "+r"(p)  // expect: operand-size-mismatch
      :
      : "memory");
}
