// clusterlaunchcontrol.try_cancel without a state space takes generic addresses, yet ptxas 13.0
// accepts 32-bit registers for both (measured: `gpu-tests probe`, rules/data/address-width-
// probe.tsv). The values are shared-window addresses, not truncated pointers: nothing measured
// says this fails, so it is at most info, never an error.
#include <cstdint>

__device__ void try_cancel(uint64_t* mbar, void* response) {
  uint32_t mbar_addr = static_cast<uint32_t>(__cvta_generic_to_shared(mbar));
  uint32_t response_addr = static_cast<uint32_t>(__cvta_generic_to_shared(response));
  asm volatile(
      "clusterlaunchcontrol.try_cancel.async.mbarrier::complete_tx::bytes.b128 [%0], [%1];"
      :: "r"(response_addr), "r"(mbar_addr) : "memory"); // expect: address-register-width(info), address-register-width(info)
}

__global__ void __cluster_dims__(1, 1, 1) kernel() {
  __shared__ uint64_t mbar;
  __shared__ alignas(16) char response[16];
  try_cancel(&mbar, response);
}
