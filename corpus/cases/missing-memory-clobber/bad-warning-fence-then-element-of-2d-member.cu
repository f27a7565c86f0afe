// missing-memory-clobber (warning): the twin of the row case: with both subscripts,
// `state->histogram[r][k]` is an element, a store into global memory the fence is there to
// order.
struct RowState {
  unsigned histogram[3][256];
  unsigned arrival;
};

__device__ void count(RowState* state, int round, int k) {
  asm volatile("fence.acq_rel.gpu;");  // expect: missing-memory-clobber, prefer-cuda-ptx(info)
  state->histogram[round % 3][k] = 0;
}
