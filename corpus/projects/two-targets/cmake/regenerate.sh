#!/bin/sh
# Regenerates cmake-output/ (compile_commands.json and the response files it names) with real CMake +
# nvcc, run where both exist (the GPU machine): `sh cmake/regenerate.sh`. CMake builds in cmake-output/ (not build/, which ptxguard would find on its own and use with the wrong paths)
# itself; everything but the database, the response files and the logs is removed afterwards.
# The paths inside are those of the machine that ran it; the tests rewrite that prefix.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build="$here/cmake-output"
rm -rf "$build"
mkdir -p "$build"
cmake -S "$here" -B "$build" -DCMAKE_CUDA_COMPILER="${CUDACXX:-nvcc}" >"$build/cmake.log" 2>&1 || { cat "$build/cmake.log"; exit 1; }
# Build too, and keep what nvcc says: attention/softmax.cu has one unguarded sm_90 form that the
# sm_80 build must reject (the finding ptxguard reports there).
cmake --build "$build" -- -k >"$build/build.log" 2>&1 || true
find "$build" -type f ! -name compile_commands.json ! -name '*.rsp' ! -name build.log -delete
find "$build" -type d -empty -delete
{
  echo "source dir: $here"
  nvcc --version | tail -2
  cmake --version | head -1
} >"$build/regenerated-from.txt"
