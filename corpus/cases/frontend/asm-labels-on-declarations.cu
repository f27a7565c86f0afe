// Front end: `asm("name")` after a declarator is an asm label (GCC's explicit register
// variables and symbol names), not an asm statement: no PTX to check, also after a function
// declarator's parameters or `throw()` (preprocessed glibc headers in `.cu.cpp` files). An
// `if`/`while` head's `)` before `asm` starts a statement. The device functions' findings prove
// the file was analysed.
__device__ float scaled(float x) {
  register float acc asm("v64");
  acc = x * 2.0f;
  return acc;
}

extern int counter asm("global_counter");
extern void* memchr(void*, int, unsigned long) throw() __asm__("memchr") __attribute__((__pure__));
extern int renamed(int) __asm__("renamed_impl");
extern "C" int other(int x) noexcept __asm__("other_impl");
static int table[4] asm("table_sym");

__device__ void guarded(unsigned* p, int c) {
  if (c) asm volatile("st.global.u32 [%0], 1;" :: "l"(p));  // expect: missing-memory-clobber(info), generic-address(info)
  while (c--) asm volatile("add.u32 %0, 1;" :: "r"(c));  // expect: ptx-syntax
}

__device__ unsigned sub3(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, %n2;" : "=r"(r) : "r"(a), "r"(b));  // expect: unsupported-modifier
  return r;
}
