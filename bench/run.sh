#!/usr/bin/env bash
# Whole-process timing of `ptxguard check` against `rg -l asm` on trees of real CUDA
# projects, and their ratio (the bar: at most 1.5x cold; below 1x with the result cache
# warm). The trees are not part of the repository: check out real projects (CUTLASS, CCCL,
# flashinfer, ... for a dense tree; projects with sparser inline PTX for another) into
# folders and pass them.
#
#   bench/run.sh TREE [TREE...]        # RUNS=15 by default; PROFILE=release builds quicker
#
# For each tree, three commands run in turn in each round (so a burst of load on the
# machine hits all): `rg -l asm`, `ptxguard check --no-cache` (cold: every file analysed) and
# `ptxguard check` with its result cache filled by an earlier run (warm: nothing changed).
# The cache lives in a scratch working directory, never in the tree. The best and the
# median of each are compared.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: bench/run.sh TREE [TREE...]" >&2; exit 2; }
runs=${RUNS:-15}
profile=${PROFILE:-dist}
cd "$(dirname "$0")/.."
# The `dist` profile (fat LTO, one codegen unit): what the wheel ships.
cargo build --locked --profile "$profile" -q -p ptxguard
bin=$(pwd)/target/$profile/ptxguard
command -v rg >/dev/null || { echo "ripgrep (rg) is needed" >&2; exit 2; }

ms() {
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}
stats() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%d %d", v[1], v[int((NR + 1) / 2)] }'; }
ratio() {
  awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" 'BEGIN {
    printf "%.2fx best, %.2fx median", a / (b > 0 ? b : 1), c / (d > 0 ? d : 1)
  }'
}

bench_tree() {
  tree=$(cd "$1" && pwd)
  scratch=$(mktemp -d)
  cd "$scratch"

  # Warm the page cache so every command reads from memory, and fill the result cache.
  rg -l asm "$tree" >/dev/null || true
  "$bin" check "$tree" --exit-zero --output-format concise >/dev/null 2>&1 || true

  rg_times=()
  cold_times=()
  warm_times=()
  for _ in $(seq "$runs"); do
    rg_times+=("$(ms rg -l asm "$tree")")
    cold_times+=("$(ms "$bin" check "$tree" --no-cache --exit-zero --output-format concise)")
    warm_times+=("$(ms "$bin" check "$tree" --exit-zero --output-format concise)")
  done

  read -r rg_best rg_median <<<"$(stats "${rg_times[@]}")"
  read -r cold_best cold_median <<<"$(stats "${cold_times[@]}")"
  read -r warm_best warm_median <<<"$(stats "${warm_times[@]}")"

  files=$(find "$tree" -type f | wc -l)
  size=$(du -sh "$tree" | cut -f1)
  with_asm=$(rg -l asm "$tree" | wc -l)
  "$bin" check "$tree" --no-cache --exit-zero --output-format concise >cold.out 2>&1 || true
  "$bin" check "$tree" --exit-zero --output-format concise >warm.out 2>&1 || true
  findings=$(grep -c ': [a-z-]* \[' cold.out || true)
  same=$(cmp -s cold.out warm.out && echo "identical" || echo "DIFFERENT")
  echo "tree: $tree ($size, $files files, $with_asm containing 'asm')"
  echo "rg -l asm:                 best ${rg_best} ms, median ${rg_median} ms ($runs runs)"
  echo "ptxguard check, cold:      best ${cold_best} ms, median ${cold_median} ms, $findings findings"
  echo "ptxguard check, warm cache: best ${warm_best} ms, median ${warm_median} ms (output $same)"
  echo "cold / rg: $(ratio "$cold_best" "$rg_best" "$cold_median" "$rg_median") (bar: <= 1.5x)"
  echo "warm / rg: $(ratio "$warm_best" "$rg_best" "$warm_median" "$rg_median") (bar: < 1x)"
  cd - >/dev/null
  rm -rf "$scratch"
}

for tree in "$@"; do
  bench_tree "$tree"
  echo
done
