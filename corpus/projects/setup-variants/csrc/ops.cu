#include "cluster.cuh"

__global__ void ranks(unsigned* out) {
  cluster_sync();
  out[threadIdx.x] = cluster_rank();
}
