#!/usr/bin/env bash
# Does a missing "memory" clobber change the machine code? For each case, builds the device
# code with nvcc -O3 as written and after ptxguard's own fix (`--fix --select
# missing-memory-clobber`), disassembles both (cuobjdump -sass) and compares the instruction
# sequences with register numbers masked: "same" means the clobber changes nothing in this
# build, "differs" that the compiler used the freedom the missing clobber gives it.
# Usage: memory-clobber-sass.sh PTXGUARD OUTDIR ARCH CASE.cu...   (needs nvcc and cuobjdump)
set -uo pipefail
ptxguard=$1 out=$2 arch=$3; shift 3
mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
norm() { grep -E '^\s+/\*[0-9a-f]+\*/' | sed -E 's@/\*[0-9a-f]+\*/@@; s/;.*//; s/\bR[0-9]+\b/R/g; s/\bP[0-9]+\b/P/g; s/\bUR[0-9]+\b/UR/g; s/0x[0-9a-f]+/N/g' | tr -s ' \t' ' '; }
for case in "$@"; do
  name=$(basename "$case" .cu)
  cp "$case" "$work/$name.cu"; cp "$case" "$work/$name.fixed.cu"
  "$ptxguard" check --no-config --fix --select missing-memory-clobber "$work/$name.fixed.cu" >/dev/null 2>&1
  ok=1
  for v in "$name" "$name.fixed"; do
    nvcc -O3 -arch="$arch" -cubin -o "$work/$v.cubin" "$work/$v.cu" 2> "$work/$v.err" || { ok=0; echo "$name: build failed: $(head -3 "$work/$v.err")" >> "$out/sass.txt"; }
    [ $ok = 1 ] && cuobjdump -sass "$work/$v.cubin" | norm > "$work/$v.sass"
  done
  [ $ok = 1 ] || continue
  if cmp -s "$work/$name.sass" "$work/$name.fixed.sass"; then verdict=same; else verdict=differs; fi
  printf '%s\t%s\t%s lines\t%s lines\n' "$name" "$verdict" "$(wc -l < "$work/$name.sass")" "$(wc -l < "$work/$name.fixed.sass")" >> "$out/sass.txt"
  diff "$work/$name.sass" "$work/$name.fixed.sass" > "$out/$name.diff" || true
done
cat "$out/sass.txt"
