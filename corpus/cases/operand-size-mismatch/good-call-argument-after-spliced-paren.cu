// operand-size-mismatch: nothing. A call's `(` followed by a line splice (`(\` + newline) is
// still the call's parenthesis: `NUM * N` in its arguments is a product, not a declaration
// of `N` as a pointer, so `N` keeps its own declaration (`int`, 32 bits).
#define NUM 4
__device__ void arrive(int, int);

__global__ void spliced_call(int* out) {
  int N = 5;
  arrive(\
    0, NUM * N);
  int x;
  asm("add.u32 %0, %1, 1;" : "=r"(x) : "r"(N));
  *out = x;
}
