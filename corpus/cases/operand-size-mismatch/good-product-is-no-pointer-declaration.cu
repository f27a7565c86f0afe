// `bid_n * BLOCK_N` after `=`, and `NUM_MULTICAST * N_EPI_THREADS` as a call's second argument, are
// products, not declarations of pointers named `BLOCK_N` and `N_EPI_THREADS`: both are
// 32-bit values, right for `"r"`.
#include <cstdint>

static constexpr uint32_t N_EPI_THREADS = 128;
static constexpr uint32_t NUM_MULTICAST = 2;

__device__ void arrive_count(int slot, uint32_t count) { asm volatile("" :: "r"(slot), "r"(count)); }

template <int BLOCK_N>
__device__ void tile(int bid_n, unsigned* out) {
  const int off_n = bid_n * BLOCK_N;
  arrive_count(0, NUM_MULTICAST * N_EPI_THREADS);
  asm volatile("bar.sync 2, %0;" :: "r"(N_EPI_THREADS) : "memory");
  unsigned v;
  asm volatile("add.u32 %0, %1, %2;" : "=r"(v) : "r"(BLOCK_N), "r"(off_n));
  out[0] = v;
}

template __device__ void tile<128>(int, unsigned*);
