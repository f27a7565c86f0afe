#!/bin/sh
# Runs every fuzz target (or those in FUZZ_TARGETS) for SECONDS each (default 60) at the lowest priority, so that other
# builds keep the CPU. Failing inputs go to target/fuzz-failures/TARGET/; a minimised copy of
# each bug found belongs in fuzz/regressions/ (replayed by `cargo test -p ptxguard-fuzz`).
set -eu
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-60}
SEED=${2:-1}
# `FUZZ_PROFILE=fuzz` for long campaigns: optimised code (10-20x more inputs a second) that
# keeps overflow checks and debug assertions.
PROFILE=${FUZZ_PROFILE:-dev}
cargo build -q --profile "$PROFILE" -p ptxguard-fuzz
case "$PROFILE" in dev) DIR=debug ;; *) DIR=$PROFILE ;; esac
status=0
for target in ${FUZZ_TARGETS:-cpp template ptx suppress config pipeline python fix-cpp fix-python}; do
    nice -n 19 "target/$DIR/ptxguard-fuzz" "$target" "$SECONDS_EACH" "$SEED" || status=1
done
exit $status
