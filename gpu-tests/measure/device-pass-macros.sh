#!/usr/bin/env bash
# Measures the macros nvcc's device pass predefines, per target: runs the device-side
# preprocessing command that `nvcc --dryrun` prints again with `-dM`, and the host-side one.
# Usage: device-pass-macros.sh OUTDIR [TARGET...]   (needs nvcc on PATH)
set -euo pipefail
out=$1; shift
targets=("$@"); [ ${#targets[@]} -gt 0 ] || targets=(sm_75 sm_80 sm_90 sm_90a sm_100a sm_100f sm_120)
mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
printf '__global__ void k() {}\n' > "$work/t.cu"
nvcc --version | tail -2 > "$out/nvcc-version.txt"
for t in "${targets[@]}"; do
  (cd "$work" && nvcc --dryrun -arch="$t" -c t.cu -o t.o) 2> "$work/dry-$t.txt" || true
  # Preprocessing commands: `#$ gcc ... -E ... -D__CUDA_ARCH__=... t.cu -o t.cpp1.ii` (device)
  # and the one without __CUDA_ARCH__ (host).
  i=0
  grep '^#\$ .* -E ' "$work/dry-$t.txt" | sed 's/^#\$ //' | while read -r cmd; do
    i=$((i + 1))
    kind=host; case "$cmd" in *-D__CUDA_ARCH__=*) kind=device ;; esac
    cmd=$(printf '%s' "$cmd" | sed -E 's/ -o "?[^ "]+"?( |$)/ -dM -o MACROS /')
    cmd=${cmd//MACROS/"$work/m.txt"}
    (cd "$work" && eval "$cmd") >/dev/null 2>&1 || { echo "failed: $cmd" >> "$out/errors.txt"; continue; }
    sort "$work/m.txt" > "$out/$kind-$t-$i.txt"
  done
done
