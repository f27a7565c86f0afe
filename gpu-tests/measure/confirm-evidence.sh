#!/usr/bin/env bash
# `ptxguard confirm` on the corpus's GPU cases and on the committed CMake project, for
# docs/confirm-evidence.md. Each case is built as the harness builds it (-O3, the targets of
# its `// gpu-arch:` line, else sm_90); the project with no flags typed, from its
# compile_commands.json (paths moved to where it runs). JSON per file and wall times in OUTDIR.
# Usage: confirm-evidence.sh PTXGUARD OUTDIR   (from the repository root; needs nvcc, cuobjdump)
# CONFIRM_EXTRA (e.g. `--with-info`) is passed to each `ptxguard confirm`.
set -u
pg=$(realpath "$1"); o=$2; mkdir -p "$o/corpus"
nvcc --version | tail -1 > "$o/VERSION"
one() {
  f=$1 pg=$2 o=$3
  archs=$(grep -m1 '^// gpu-arch:' "$f" | sed 's#^// gpu-arch:##; s#,# #g')
  [ -z "$archs" ] && archs=sm_90
  flags="-O3"; for a in $archs; do n=${a#sm_}; flags="$flags -gencode arch=compute_$n,code=sm_$n"; done
  name=$(echo "${f#corpus/cases/}" | tr '/' '~')
  s=$(date +%s%N)
  "$pg" confirm --json $CONFIRM_EXTRA "$f" -- $flags > "$o/corpus/$name.json" 2> "$o/corpus/$name.err"
  echo "$name $? $(( ($(date +%s%N) - s) / 1000000 ))ms" >> "$o/corpus-times.txt"
}
export -f one
export CONFIRM_EXTRA=${CONFIRM_EXTRA:-}
grep -l '^// gpu-' corpus/cases/*/*.cu | xargs -P 6 -I{} bash -c 'one "$@"' _ {} "$pg" "$o"
tt=$(mktemp -d); cp -r corpus/projects/two-targets/. "$tt"
db=$tt/cmake-output/compile_commands.json
prefix=$(sed -n 's#^source dir: ##p' corpus/projects/two-targets/cmake-output/regenerated-from.txt)
sed -i "s#${prefix:-/work/main/.dev/build-context/two-targets}#$tt#g" "$db"
# The database names the host compiler of the machine that made it; without it, nvcc's own.
ccbin=$(grep -o -- '-ccbin=[^ ]*' "$db" | head -1); ccbin=${ccbin#-ccbin=}
[ -z "$ccbin" ] || [ -x "$ccbin" ] || { sed -i "s# -ccbin=$ccbin##g" "$db"; echo "$ccbin missing: -ccbin dropped" >> "$o/times.txt"; }
for f in attention/softmax.cu tensor/mma.cu; do
  s=$(date +%s%N)
  "$pg" confirm --json --compile-commands "$db" "$tt/$f" > "$o/tt-$(basename $f).json" 2> "$o/tt-$(basename $f).err"
  echo "two-targets $f $? $(( ($(date +%s%N) - s) / 1000000 ))ms" >> "$o/times.txt"
done
rm -rf "$tt"
cat "$o/times.txt"; wc -l < "$o/corpus-times.txt"
