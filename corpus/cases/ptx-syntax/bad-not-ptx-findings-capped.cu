// ptx-syntax: a template that is not PTX at all (GNU assembler data pasted into device code)
// fails on nearly every word; one statement shows its first 8 findings and counts the rest.
__device__ void embed() {
  asm volatile(".quad 0x1,0x2\n"  // expect: ptx-syntax
               ".quad 0x3,0x4\n"  // expect: ptx-syntax, ptx-syntax
               ".quad 0x5,0x6\n"  // expect: ptx-syntax, ptx-syntax
               ".quad 0x7,0x8\n"  // expect: ptx-syntax, ptx-syntax
               ".quad 0x9,0xa\n"  // expect: ptx-syntax
               ".quad 0xb,0xc\n"
               ".quad 0xd,0xe\n");
}
