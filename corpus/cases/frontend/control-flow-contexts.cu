// Front end: asm as the body of switch cases, an else-if chain without braces, a labelled
// statement and a comma-free for header.
__device__ unsigned dispatch(unsigned op, unsigned a, unsigned b) {
  unsigned r = 0;
  switch (op) {
    case 0:
      asm("add.u32 %0, %1, %n2;" : "=r"(r) : "r"(a), "r"(b));  // expect: unsupported-modifier
      break;
    case 1: {
      asm("sub.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
      break;
    }
    default:
      if (a > b)
        asm("max.u32 %0, %1, %3;" : "=r"(r) : "r"(a), "r"(b));  // expect: operand-index
      else if (a < b)
        asm("min.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
      else
        r = a;
  }
again:
  asm("add.u32 %0, %0, %c1;" : "+r"(r) : "r"(1u));  // expect: unsupported-modifier
  if (r < 3u) goto again;
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = dispatch(threadIdx.x % 3u, v[threadIdx.x], 9u);
}
