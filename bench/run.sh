#!/usr/bin/env bash
# Whole-process timing of `ptxguard check` against `rg -l asm` on a tree of real CUDA
# projects, and their ratio (goal: at most 2x). The tree is not part of the repository:
# check out real projects (CUTLASS, CCCL, flashinfer, ...) into one folder and pass it.
#
#   bench/run.sh /path/to/tree [runs]
set -euo pipefail
tree=${1:?usage: bench/run.sh TREE [RUNS]}
runs=${2:-5}
cd "$(dirname "$0")/.."
cargo build --release -q -p ptxguard
bin=target/release/ptxguard
command -v rg >/dev/null || { echo "ripgrep (rg) is needed" >&2; exit 2; }

# Warm the page cache so both tools read from memory.
rg -l asm "$tree" >/dev/null || true

best() {
  local best_ms=""
  for _ in $(seq "$runs"); do
    local start end ms
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    ms=$(( (end - start) / 1000000 ))
    if [ -z "$best_ms" ] || [ "$ms" -lt "$best_ms" ]; then best_ms=$ms; fi
  done
  echo "$best_ms"
}

files=$(find "$tree" -type f | wc -l)
size=$(du -sh "$tree" | cut -f1)
with_asm=$(rg -l asm "$tree" | wc -l)
rg_ms=$(best rg -l asm "$tree")
pg_ms=$(best "$bin" check "$tree" --exit-zero --output-format concise)
findings=$("$bin" check "$tree" --exit-zero --output-format concise 2>/dev/null | grep -c ': [a-z-]* \[' || true)
echo "tree: $tree ($size, $files files, $with_asm containing 'asm')"
echo "rg -l asm:        ${rg_ms} ms (best of $runs)"
echo "ptxguard check:   ${pg_ms} ms (best of $runs), $findings findings"
awk -v a="$pg_ms" -v b="$rg_ms" 'BEGIN { printf "ratio: %.2fx (goal: <= 2x)\n", a / (b > 0 ? b : 1) }'
