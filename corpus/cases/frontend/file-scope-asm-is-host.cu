// Front end: an asm at file scope (or in a namespace or `extern "C"` block) is an asm
// declaration that nvcc gives the host compiler only: measured with nvcc 13, host assembly
// (`.section` data, as cudafe's stub files hold) landed in the host object and PTX text there
// never reached the PTX (gpu-tests/measure/file-scope-asm.sh). Never checked as PTX. The device
// function's finding proves the file was analysed.
asm(".section .nv_fatbin, \"a\"\n"
    ".align 8\n"
    "fatbinData:\n"
    ".quad 0x00100001ba55ed50,0x0000000000006397\n"
    ".text\n");

namespace detail {
asm(".globl marker_sym\nmarker_sym:\n");
}

extern "C" {
asm(".global .u32 gvar_from_asm;");
}

__device__ unsigned sub3(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, %n2;" : "=r"(r) : "r"(a), "r"(b));  // expect: unsupported-modifier
  return r;
}
