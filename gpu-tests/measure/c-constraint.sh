#!/usr/bin/env bash
# Measures what nvcc does with the "C" constraint and with "n" inside opcode text.
# Usage: c-constraint.sh OUTDIR   (needs nvcc on PATH)
set -uo pipefail
out=$1; mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
case_() { # name, body
  printf '#include <cstdint>\n%s\n' "$2" > "$work/$1.cu"
  { echo "== $1"; cat "$work/$1.cu"; echo "-- nvcc -arch=sm_90 -ptx"; 
    (cd "$work" && nvcc -arch=sm_90 -ptx "$1.cu" -o "$1.ptx") 2>&1; echo "rc=$?";
    [ -f "$work/$1.ptx" ] && grep -E '^\s*(add|mov|shl|mma|cvt)\.' "$work/$1.ptx"; echo; } >> "$out/c-constraint.txt"
}
case_ c_member 'struct U32 { static constexpr char value[] = "u32"; };
template <class T> __device__ unsigned f(unsigned a) { unsigned r; asm("add.%2 %0, %1, 1;" : "=r"(r) : "r"(a), "C"(T::value)); return r; }
__global__ void k(unsigned* o) { o[0] = f<U32>(o[0]); }'
case_ c_ternary '__device__ bool flag;
__global__ void k(unsigned* o, bool s) { unsigned r; asm("add.%2 %0, %1, 1;" : "=r"(r) : "r"(o[0]), "C"(s ? "u32" : "s32")); o[0] = r; }'
case_ c_literal '__global__ void k(unsigned* o) { unsigned r; asm("add.%2 %0, %1, 1;" : "=r"(r) : "r"(o[0]), "C"("u32")); o[0] = r; }'
case_ c_global_array 'static constexpr char kType[] = "s32";
__global__ void k(unsigned* o) { unsigned r; asm("add.%2 %0, %1, 1;" : "=r"(r) : "r"(o[0]), "C"(kType)); o[0] = r; }'
case_ c_pointer 'static constexpr const char* kType = "u32";
__global__ void k(unsigned* o) { unsigned r; asm("add.%2 %0, %1, 1;" : "=r"(r) : "r"(o[0]), "C"(kType)); o[0] = r; }'
case_ n_in_modifier '__global__ void k(unsigned* o) { unsigned r; asm("mov.b%1 %0, 7;" : "=r"(r) : "n"(32)); o[0] = r; }'
case_ n_shape '__global__ void k(float* o, const unsigned* a) { float d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k%10.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
    : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "n"(16));
  o[0] = d0 + d1 + d2 + d3; }'
