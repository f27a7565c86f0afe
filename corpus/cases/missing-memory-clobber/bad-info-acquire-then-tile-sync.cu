// missing-memory-clobber (info): after the acquire, the warp syncs its cooperative-groups tile
// (`rank_tile.sync()`, `__syncwarp` underneath: a compiler barrier) before reading the shared
// count, so no C++ access sits beside the acquire.
#include <cooperative_groups.h>
#include <cstdint>
namespace cg = cooperative_groups;

__global__ void count(const uint32_t* flag, int* shared_count, int* out) {
  cg::thread_block_tile<32> rank_tile = cg::tiled_partition<32>(cg::this_thread_block());
  uint32_t v = 0;
  if (rank_tile.thread_rank() == 0) {
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(flag));  // expect: missing-memory-clobber(info), generic-address(info)
  }
  rank_tile.sync();
  out[threadIdx.x] = *shared_count + static_cast<int>(v);
}
