#!/bin/sh
# A campaign of a set size on a many-core machine: for each target (FUZZ_TARGETS, default all),
# JOBS processes with different seeds share INPUTS inputs (default 10,000,000), each stopped at
# SECONDS at the latest. Prints each process's line and the total per target.
# Usage: fuzz/campaign.sh BINARY [INPUTS] [JOBS] [SECONDS]   (FUZZ_ROOT: the checkout)
# FUZZ_SEED_BASE (default 1000): the first process's seed; a campaign split over several runs
# gives each run its own base so that no input is tried twice.
set -u
bin=$1; total=${2:-10000000}; jobs=${3:-16}; limit=${4:-600}
each=$(( (total + jobs - 1) / jobs )); base=${FUZZ_SEED_BASE:-1000}
status=0
for target in ${FUZZ_TARGETS:-cpp template ptx suppress config pipeline python fix-cpp fix-python}; do
  out=$(mktemp)
  i=0
  while [ $i -lt "$jobs" ]; do
    FUZZ_INPUTS=$each "$bin" "$target" "$limit" $((base + i)) >> "$out" 2>&1 &
    i=$((i + 1))
  done
  wait
  grep -h "FAILURE" "$out" && status=1
  awk -v t="$target" '/ inputs, / { n += $2; f += $4 } END { printf "%s: %d inputs, %d failures\n", t, n, f }' "$out"
  rm -f "$out"
done
exit $status
