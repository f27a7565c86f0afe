#!/usr/bin/env bash
# Whether nvcc/ptxas accept an im2col TMA load (`cp.async.bulk.tensor.4d...im2col`) given a
# ctaMask operand with and without `.multicast::cluster`, and without the mask: the operand
# count `ptx-syntax` checks (an older CUTLASS wrote the mask without the qualifier).
# Usage: tma-im2col-operands.sh [ARCH...]   (default sm_90a; needs nvcc on PATH)
set -u
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
nvcc --version | tail -1
variant() { # NAME QUALIFIER TAIL
  cat > "$work/$1.cu" <<CU
#include <cstdint>
__global__ void k(const void* desc, uint64_t* mbar, void* smem, int c, int w, int h, int n,
                  uint16_t ow, uint16_t oh, uint16_t mask) {
  uint64_t d = reinterpret_cast<uint64_t>(desc);
  uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(mbar));
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes$2"
      " [%0], [%1, {%3, %4, %5, %6}], [%2], {%7, %8}$3;"
      :
      : "r"(s), "l"(d), "r"(b), "r"(c), "r"(w), "r"(h), "r"(n), "h"(ow), "h"(oh), "h"(mask)
      : "memory");
}
CU
}
variant no-mask "" ""
variant mask-without-multicast "" ", %9"
variant mask-with-multicast ".multicast::cluster" ", %9"
for arch in ${@:-sm_90a}; do
  for v in no-mask mask-without-multicast mask-with-multicast; do
    if msg=$(nvcc -arch="$arch" -c "$work/$v.cu" -o "$work/$v.o" 2>&1); then
      echo "$arch $v: accepted"
    else
      echo "$arch $v: rejected: $(echo "$msg" | grep -m2 -E 'error|ptxas' | tr '\n' ' ')"
    fi
  done
done
