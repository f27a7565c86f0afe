#!/usr/bin/env bash
# Measures whether nvcc -O3 copies an asm statement whose template defines a label or a
# register outside `{ }` (so ptxas sees the name defined twice): in loops with a runtime trip
# count, a constant trip count, under `#pragma unroll`, and in a helper inlined twice.
# Usage: labels-in-loops.sh OUTDIR   (needs nvcc on PATH)
set -uo pipefail
out=$1; mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
nvcc --version | tail -1 > "$out/nvcc-version.txt"
report="$out/labels-in-loops.txt"; : > "$report"
LABEL='asm volatile("B0: bra.uni B1;\n\tB1: bra.uni LOOP;\n\tLOOP:");'
REG='asm volatile(".reg .u32 t1;\n\tmov.u32 t1, %1;\n\tadd.u32 %0, t1, 1;" : "=r"(v) : "r"(v));'
variant() { # name, body
  printf '%s\n' "$2" > "$work/$1.cu"
  if msg=$(cd "$work" && nvcc -O3 -arch=sm_90 -cubin "$1.cu" -o "$1.cubin" 2>&1); then
    echo "$1: compiles" >> "$report"
  else
    echo "$1: fails: $(echo "$msg" | grep -m2 -E 'error|fatal' | tr '\n' ' ')" >> "$report"
  fi
}
for kind in LABEL REG; do
  asm=${!kind}
  variant "${kind}_runtime_loop" "__global__ void k(unsigned* c, unsigned long n) { unsigned v = c[0];
  for (unsigned long i = 0; i < n * (blockDim.x + 299); i++) { $asm } c[threadIdx.x] = v; }"
  variant "${kind}_runtime_loop_int" "__global__ void k(unsigned* c, int n) { unsigned v = c[0];
  for (int i = 0; i < n; i++) { $asm } c[threadIdx.x] = v; }"
  variant "${kind}_constant_loop" "__global__ void k(unsigned* c) { unsigned v = c[0];
  for (int i = 0; i < 8; i++) { $asm } c[threadIdx.x] = v; }"
  variant "${kind}_pragma_unroll" "__global__ void k(unsigned* c, int n) { unsigned v = c[0];
  #pragma unroll 4
  for (int i = 0; i < n; i++) { $asm } c[threadIdx.x] = v; }"
  variant "${kind}_inlined_twice" "__device__ __forceinline__ unsigned f(unsigned v) { $asm return v; }
  __global__ void k(unsigned* c) { unsigned v = c[0]; v = f(v); v = f(v + 3); c[threadIdx.x] = v; }"
  variant "${kind}_once" "__global__ void k(unsigned* c) { unsigned v = c[0]; $asm c[threadIdx.x] = v; }"
done
cat "$report"
