// conditional-output, info only: the helper's "=r" output is written only when `pred` is 1
// (the atomic runs on one thread), so it returns garbage on the others; but its only caller
// reads the result only under `if (leader)`, the argument it passed for `pred`. Nothing in
// view reads the garbage. (Still fragile: "+r", or `selp`, says it in the asm.)
__device__ unsigned fetch_ticket(unsigned* counter, int pred) {
  unsigned ticket = 0;
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "setp.eq.u32 p, %2, 1;\n\t"
               "@p atom.add.u32 %0, [%1], 1;\n\t"  // expect: conditional-output(info)
               "}"
               : "=r"(ticket)
               : "l"(counter), "r"(pred)
               : "memory");
  return ticket;
}

__global__ void k(unsigned* counter, unsigned* tickets, unsigned base) {
  int leader = threadIdx.x == 0;
  unsigned ticket = fetch_ticket(counter, leader) + base;
  if (leader) {
    tickets[blockIdx.x] = ticket;
  }
}
