#!/usr/bin/env bash
# Measures which single constraint letters nvcc accepts in device asm: each letter on an
# input of `pmevent` (an immediate) and of `mov.u32` (a register), built with
# `nvcc -arch=sm_90 -cubin`; then whether the toolkit's own headers use any of them.
# Usage: constraint-letters.sh OUTDIR   (needs nvcc on PATH)
set -uo pipefail
out=$1; mkdir -p "$out"; report="$out/constraint-letters.txt"; : > "$report"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
nvcc --version | tail -2 >> "$report"
for letter in i n r l h f d g X a b c S D x s m p o E F V I J K L M N O P; do
  for form in imm reg; do
    if [ $form = imm ]; then
      body="__global__ void k() { asm volatile(\"pmevent %0;\" :: \"$letter\"(3)); }"
    else
      body="__global__ void k(unsigned* o) { unsigned r; asm volatile(\"mov.u32 %0, %1;\" : \"=r\"(r) : \"$letter\"(o[0])); o[0] = r; }"
    fi
    printf '%s\n' "$body" > "$work/k.cu"
    msg=$(cd "$work" && nvcc -arch=sm_90 -cubin k.cu -o k.cubin 2>&1 | head -3 | tr '\n' ' ')
    [ -f "$work/k.cubin" ] && verdict=accepted || verdict=rejected
    rm -f "$work/k.cubin"
    echo "$letter $form $verdict ${msg}" >> "$report"
  done
done
echo "== toolkit headers using a \"i\" constraint" >> "$report"
inc=$(dirname "$(command -v nvcc)")/../include
grep -rn '"i"\s*(' "$inc" 2>/dev/null | head -20 >> "$report"
