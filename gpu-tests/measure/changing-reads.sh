#!/usr/bin/env bash
# Measures what nvcc -O3 does with reads of changing state written as asm without `volatile`
# (clock registers; `.cv`, `.volatile`, `.acquire` loads): how many reads each kernel keeps in
# its PTX and SASS (two reads merged into one, a read hoisted out of a loop). Each variant is
# one kernel; `volatile` twins beside.
# Usage: changing-reads.sh OUTDIR   (needs nvcc and cuobjdump on PATH)
set -uo pipefail
out=$1; mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
nvcc --version | tail -1 > "$out/nvcc-version.txt"
report="$out/changing-reads.txt"; : > "$report"
variant() { # name, body (QUAL is replaced by nothing, then by volatile)
  for qual in plain volatile; do
    q=""; [ "$qual" = volatile ] && q="volatile"
    printf '#include <cstdint>\n%s\n' "${2//QUAL/$q}" > "$work/$1-$qual.cu"
    if (cd "$work" && nvcc -O3 -arch=sm_90 -cubin "$1-$qual.cu" -o "$1-$qual.cubin" 2>"$1-$qual.err" \
        && nvcc -O3 -arch=sm_90 -ptx "$1-$qual.cu" -o "$1-$qual.ptx" 2>>"$1-$qual.err"); then
      ptx=$(grep -cE '%clock|%globaltimer|ld\.(global\.cv|volatile|acquire)' "$work/$1-$qual.ptx")
      sass=$(cuobjdump -sass "$work/$1-$qual.cubin" | grep -cE 'SR_CLOCK|SR_GLOBALTIMER|LDG')
      echo "$1 $qual: ptx reads $ptx, sass reads $sass" >> "$report"
    else
      echo "$1 $qual: build failed: $(head -3 "$work/$1-$qual.err" | tr '\n' ' ')" >> "$report"
    fi
  done
}
# Two reads around memory work (the corpus's bad-clock-read-twice).
variant around_memory '__global__ void k(float* d, unsigned* c) { unsigned t0, t1;
  asm QUAL("mov.u32 %0, %%clock;" : "=r"(t0)); d[threadIdx.x] = sqrtf(d[threadIdx.x]) * 3.0f;
  asm QUAL("mov.u32 %0, %%clock;" : "=r"(t1)); c[threadIdx.x] = t1 - t0; }'
# Two reads around arithmetic only, one basic block.
variant around_arithmetic '__global__ void k(float* d, unsigned* c) { unsigned t0, t1; float x = d[threadIdx.x];
  asm QUAL("mov.u32 %0, %%clock;" : "=r"(t0)); x = sqrtf(x) * 3.0f + x * x;
  asm QUAL("mov.u32 %0, %%clock;" : "=r"(t1)); d[threadIdx.x] = x; c[threadIdx.x] = t1 - t0; }'
# Back to back.
variant back_to_back '__global__ void k(unsigned* c) { unsigned t0, t1;
  asm QUAL("mov.u32 %0, %%clock;" : "=r"(t0)); asm QUAL("mov.u32 %0, %%clock;" : "=r"(t1)); c[threadIdx.x] = t1 - t0; }'
# A helper called twice (inlined).
variant helper_twice '__device__ __forceinline__ unsigned now() { unsigned t; asm QUAL("mov.u32 %0, %%clock;" : "=r"(t)); return t; }
__global__ void k(float* d, unsigned* c) { unsigned t0 = now(); d[threadIdx.x] = sqrtf(d[threadIdx.x]) * 3.0f; unsigned t1 = now(); c[threadIdx.x] = t1 - t0; }'
# A 64-bit read through clock64's register, twice.
variant clock64_twice '__global__ void k(float* d, unsigned long long* c) { unsigned long long t0, t1;
  asm QUAL("mov.u64 %0, %%clock64;" : "=l"(t0)); d[threadIdx.x] = sqrtf(d[threadIdx.x]) * 3.0f;
  asm QUAL("mov.u64 %0, %%clock64;" : "=l"(t1)); c[threadIdx.x] = t1 - t0; }'
# A read in a loop: hoisted out of it?
variant in_loop '__global__ void k(unsigned* c, int n) { unsigned s = 0;
  for (int i = 0; i < n; ++i) { unsigned t; asm QUAL("mov.u32 %0, %%clock;" : "=r"(t)); s ^= t; } c[threadIdx.x] = s; }'
# A spin until a deadline: the read in the loop condition.
variant spin_until '__global__ void k(unsigned* c, unsigned wait) { unsigned t0, t;
  asm QUAL("mov.u32 %0, %%clock;" : "=r"(t0));
  do { asm QUAL("mov.u32 %0, %%clock;" : "=r"(t)); } while (t - t0 < wait); c[threadIdx.x] = t - t0; }'
# globaltimer twice.
variant globaltimer_twice '__global__ void k(float* d, unsigned long long* c) { unsigned long long t0, t1;
  asm QUAL("mov.u64 %0, %%globaltimer;" : "=l"(t0)); d[threadIdx.x] = sqrtf(d[threadIdx.x]) * 3.0f;
  asm QUAL("mov.u64 %0, %%globaltimer;" : "=l"(t1)); c[threadIdx.x] = t1 - t0; }'
# Loads of changing memory, twice in straight-line code through a helper (the corpus's
# bad-ld-cv-refetch), and polled in a loop.
for load in "ld.global.cv.u32" "ld.volatile.global.u32" "ld.acquire.gpu.global.u32"; do
  name=${load//./_}
  variant "${name}_helper_twice" "__device__ __forceinline__ unsigned rd(const unsigned* f) { unsigned v; asm QUAL(\"$load %0, [%1];\" : \"=r\"(v) : \"l\"(f)); return v; }
__global__ void k(const unsigned* f, unsigned* s) { unsigned a = rd(f); s[threadIdx.x + 1] = a * 3u; unsigned b = rd(f); s[threadIdx.x] = b - a; }"
  variant "${name}_in_loop" "__global__ void k(const unsigned* f, unsigned* s) { unsigned v, n = 0;
  do { asm QUAL(\"$load %0, [%1];\" : \"=r\"(v) : \"l\"(f)); ++n; } while (v == 0 && n < 1000000u); s[threadIdx.x] = n; }"
done
cat "$report"
