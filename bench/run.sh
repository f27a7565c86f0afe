#!/usr/bin/env bash
# Whole-process timing of `ptxguard check` against `rg -l asm` on a tree of real CUDA
# projects, and their ratio (the bar: at most 1.5x). The tree is not part of the repository:
# check out real projects (CUTLASS, CCCL, flashinfer, ...) into one folder and pass it.
#
#   bench/run.sh /path/to/tree [runs]
#
# The two commands run alternately (so a burst of load on the machine hits both), and the
# best and the median of each are compared.
set -euo pipefail
tree=${1:?usage: bench/run.sh TREE [RUNS]}
runs=${2:-15}
cd "$(dirname "$0")/.."
# The `dist` profile (fat LTO, one codegen unit): what the wheel ships.
cargo build --locked --profile dist -q -p ptxguard
bin=target/dist/ptxguard
command -v rg >/dev/null || { echo "ripgrep (rg) is needed" >&2; exit 2; }

# Warm the page cache so both tools read from memory.
rg -l asm "$tree" >/dev/null || true
"$bin" check "$tree" --exit-zero --output-format concise >/dev/null 2>&1 || true

ms() {
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}

rg_times=()
pg_times=()
for _ in $(seq "$runs"); do
  rg_times+=("$(ms rg -l asm "$tree")")
  pg_times+=("$(ms "$bin" check "$tree" --exit-zero --output-format concise)")
done

stats() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%d %d", v[1], v[int((NR + 1) / 2)] }'; }
read -r rg_best rg_median <<<"$(stats "${rg_times[@]}")"
read -r pg_best pg_median <<<"$(stats "${pg_times[@]}")"

files=$(find "$tree" -type f | wc -l)
size=$(du -sh "$tree" | cut -f1)
with_asm=$(rg -l asm "$tree" | wc -l)
findings=$("$bin" check "$tree" --exit-zero --output-format concise 2>/dev/null | grep -c ': [a-z-]* \[' || true)
echo "tree: $tree ($size, $files files, $with_asm containing 'asm')"
echo "rg -l asm:        best ${rg_best} ms, median ${rg_median} ms ($runs runs)"
echo "ptxguard check:   best ${pg_best} ms, median ${pg_median} ms, $findings findings"
awk -v a="$pg_best" -v b="$rg_best" -v c="$pg_median" -v d="$rg_median" 'BEGIN {
  printf "ratio: %.2fx best, %.2fx median (bar: <= 1.5x)\n", a / (b > 0 ? b : 1), c / (d > 0 ? d : 1)
}'
