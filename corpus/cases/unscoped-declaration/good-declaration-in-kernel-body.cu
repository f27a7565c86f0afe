// unscoped-declaration must stay silent: an asm written directly in a kernel's body (no loop,
// no macro) is emitted once; a kernel is never inlined into another function.
__global__ void reserve_static_smem() {
  asm volatile(".shared .align 4 .b8 scratch[1024];");
}
