#!/bin/sh
# Runs every fuzz target for SECONDS each (default 60) at the lowest priority, so that other
# builds keep the CPU. Failing inputs go to target/fuzz-failures/TARGET/; a minimised copy of
# each bug found belongs in fuzz/regressions/ (replayed by `cargo test -p ptxguard-fuzz`).
set -eu
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-60}
SEED=${2:-1}
cargo build -q -p ptxguard-fuzz
status=0
for target in cpp template ptx suppress config pipeline; do
    nice -n 19 target/debug/ptxguard-fuzz "$target" "$SECONDS_EACH" "$SEED" || status=1
done
exit $status
