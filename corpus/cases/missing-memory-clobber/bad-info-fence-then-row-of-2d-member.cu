// missing-memory-clobber (info): after the fence, `state->histogram[round % 3]` names a row of
// a two-dimensional array member: an address computed, nothing loaded or stored there. The
// only accesses beside the fence are the thread's own.
struct RowState {
  unsigned histogram[3][256];
  unsigned arrival;
};

__device__ unsigned pick_row(RowState* state, int round) {
  asm volatile("fence.acq_rel.gpu;");  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
  unsigned* current = state->histogram[round % 3];
  unsigned local[4] = {0, 0, 0, 0};
  local[round & 3] = 1;
  return static_cast<unsigned>(reinterpret_cast<unsigned long long>(current)) + local[0];
}
