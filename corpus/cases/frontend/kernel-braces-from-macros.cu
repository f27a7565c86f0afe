// Front end: a kernel whose head and braces a macro writes (`BEGIN_KERNEL(k) ... END_KERNEL`)
// looks like file scope to the scanner; but an asm with operands is no file-scope asm (only a
// basic asm may stand there), so it is still checked.
#define BEGIN_KERNEL(name) __global__ void name(unsigned* out) {
#define END_KERNEL }
BEGIN_KERNEL(k)
  unsigned r;
  asm("mov.u32 %0, %%laneid" : "=r"(r));  // expect: ptx-syntax, prefer-cuda-ptx(info)
  out[0] = r;
END_KERNEL
