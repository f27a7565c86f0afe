#!/bin/sh
# Regenerates build/compile_commands.json with real CMake + nvcc (run where both exist, e.g. the
# GPU machine): `sh cmake/regenerate.sh [OUTDIR]`. The paths in the database are those of the
# machine that ran it; the tests rewrite the source directory prefix to the checkout's.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(mktemp -d)
cmake -S "$here" -B "$build" -DCMAKE_CUDA_COMPILER="${CUDACXX:-nvcc}" >"$build/cmake.log" 2>&1 || { cat "$build/cmake.log"; exit 1; }
# Build too, and keep what nvcc says: attention/softmax.cu has one unguarded sm_90 form that the
# sm_80 build must reject (the finding ptxguard reports there).
cmake --build "$build" -- -k >"$build/build.log" 2>&1 || true
out=${1:-$here/build}
mkdir -p "$out"
cp "$build/compile_commands.json" "$out/compile_commands.json"
cp "$build/build.log" "$out/build.log"
echo "source dir: $here" >"$out/regenerated-from.txt"
nvcc --version | tail -2 >>"$out/regenerated-from.txt"
cmake --version | head -1 >>"$out/regenerated-from.txt"
