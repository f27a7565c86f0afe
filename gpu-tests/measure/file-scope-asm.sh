#!/usr/bin/env bash
# Measures where nvcc sends an asm statement written at file scope (outside any function):
# into the device code (the PTX), the host object, or an error. Two texts: host assembly
# (`.section .nv_fatbin` data, as cudafe's stub files hold) and a PTX directive.
# Usage: file-scope-asm.sh OUTDIR   (needs nvcc, objdump or nm on PATH)
set -uo pipefail
out=$1; mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
nvcc --version | tail -1 > "$out/nvcc-version.txt"
report="$out/file-scope-asm.txt"; : > "$report"
variant() { # name, file text
  printf '%s\n' "$2" > "$work/$1.cu"
  {
    echo "== $1"; cat "$work/$1.cu"
    echo "-- nvcc -arch=sm_90 -ptx"; (cd "$work" && nvcc -arch=sm_90 -ptx "$1.cu" -o "$1.ptx" 2>&1); echo "rc=$?"
    [ -f "$work/$1.ptx" ] && { echo "ptx lines naming the asm:"; grep -nE 'marker_sym|gvar_from_asm|nv_fatbin_test' "$work/$1.ptx"; }
    echo "-- nvcc -arch=sm_90 -c"; (cd "$work" && nvcc -arch=sm_90 -c "$1.cu" -o "$1.o" 2>&1); echo "rc=$?"
    [ -f "$work/$1.o" ] && { echo "host object symbols/sections:"; nm "$work/$1.o" 2>/dev/null | grep -E 'marker_sym|gvar_from_asm'; objdump -h "$work/$1.o" 2>/dev/null | grep -E 'nv_fatbin_test'; }
    echo
  } >> "$report" 2>&1
}
variant host_section 'asm(".section .nv_fatbin_test, \"a\"\n.align 8\nmarker_sym:\n.quad 0x1\n.text\n");
__global__ void k(int* p) { p[threadIdx.x] = 1; }'
variant ptx_directive 'asm(".global .u32 gvar_from_asm;");
__global__ void k(int* p) { p[threadIdx.x] = 1; }'
variant ptx_directive_cpp_host 'asm(".globl marker_sym\nmarker_sym:\n");
int host_only(int x) { return x + 1; }'
cat "$report"
