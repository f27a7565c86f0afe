// conditional-output (error): the helper returns garbage unless `pred` is 1, and its caller
// reads the result under `if (even)`, which is not the argument it passed for `pred`.
__device__ unsigned fetch_ticket(unsigned* counter, int pred) {
  unsigned ticket = 0;
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "setp.eq.u32 p, %2, 1;\n\t"
               "@p atom.add.u32 %0, [%1], 1;\n\t"  // expect: conditional-output(warning)
               "}"
               : "=r"(ticket)
               : "l"(counter), "r"(pred)
               : "memory");
  return ticket;
}

__global__ void k(unsigned* counter, unsigned* tickets) {
  int leader = threadIdx.x == 0;
  int even = (threadIdx.x & 1) == 0;
  unsigned ticket = fetch_ticket(counter, leader);
  if (even) {
    tickets[threadIdx.x] = ticket;
  }
}
