#!/usr/bin/env bash
# Builds the Python wheel that carries the `ptxguard` binary (maturin, `bindings = "bin"`).
#
#   scripts/build-wheel.sh [OUT_DIR] [MATURIN_ARGS...]     # default OUT_DIR: target/wheels
#
# The binary is built with the `dist` profile (fat LTO, one codegen unit); PTXGUARD_PROFILE
# picks another (the packaging test uses a fast one). maturin comes from PATH, or from
# `pip install maturin` into target/maturin-venv when it is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/target/wheels}
shift || true
profile=${PTXGUARD_PROFILE:-dist}

maturin=$(command -v maturin || true)
if [ -z "$maturin" ]; then
  venv=${CARGO_TARGET_DIR:-$root/target}/maturin-venv
  if [ ! -x "$venv/bin/maturin" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet 'maturin>=1.5,<2'
  fi
  maturin=$venv/bin/maturin
fi

cd "$root"
"$maturin" build --profile "$profile" --out "$out" "$@"
ls "$out"/ptxguard-*.whl
