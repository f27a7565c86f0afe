#!/usr/bin/env bash
# `ptxguard check --confirm` on real projects, each file's command taken from the project's own
# build system (nothing typed): ThunderKittens' kernel Makefiles (`make -n`, their nvcc line
# made into compile_commands.json entries) and marlin's setup.py (torch's BuildExtension builds
# with ninja; `ninja -t compdb` gives the database). For docs/confirm-evidence.md.
# Usage: confirm-real.sh PTXGUARD OUTDIR TK_DIR MARLIN_DIR   (needs nvcc, cuobjdump, make,
# ninja, python3 with torch; the project folders are modified: pass copies)
set -u
pg=$(realpath "$1"); o=$(realpath -m "$2"); tk=$(realpath "$3"); marlin=$(realpath "$4")
mkdir -p "$o"
nvcc --version | tail -1 > "$o/VERSION"
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# ThunderKittens: one database at the root with the nvcc line of each kernel's Makefile.
entries=()
for k in mxfp8_b200 nvfp4_b200; do
  d=$tk/kernels/gemm/$k
  (cd "$d" && make -n) > "$o/tk-$k-make-n.txt" 2>&1
  line=$(grep -m1 '^nvcc ' "$o/tk-$k-make-n.txt")
  entries+=("$d" "$line")
done
python3 - "$tk/compile_commands.json" "${entries[@]}" <<'PY'
import json, shlex, sys
out, rest = sys.argv[1], sys.argv[2:]
db = []
for d, line in zip(rest[::2], rest[1::2]):
    words = shlex.split(line)
    src = next(w for w in words if w.endswith('.cu'))
    db.append({"directory": d, "file": src, "command": line})
json.dump(db, open(out, 'w'), indent=1)
PY
cp "$tk/compile_commands.json" "$o/tk-compile_commands.json"
s=$(date +%s%N)
(cd "$tk" && "$pg" check --no-cache --confirm --output-format json \
   kernels/gemm/mxfp8_b200/mxfp8_b200_gemm.cu kernels/gemm/nvfp4_b200/nvfp4_b200_gemm.cu \
   include/ops/thread/memory/tile/tma.cuh) > "$o/tk.json" 2> "$o/tk.err"
echo "ThunderKittens check --confirm exit $? $(ms $s)ms" >> "$o/times.txt"

# marlin: its setup.py, built as written (torch picks ninja), for sm_80 and sm_90.
s=$(date +%s%N)
(cd "$marlin" && TORCH_CUDA_ARCH_LIST="8.0;9.0" MAX_JOBS=16 timeout 420 python3 setup.py build_ext --inplace) > "$o/marlin-build.txt" 2>&1
echo "marlin setup.py build_ext exit $? $(ms $s)ms" >> "$o/times.txt"
ninja -C "$(ls -d "$marlin"/build/temp* | head -1)" -t compdb > "$marlin/compile_commands.json" 2>> "$o/marlin-build.txt"
cp "$marlin/compile_commands.json" "$o/marlin-compile_commands.json"
s=$(date +%s%N)
(cd "$marlin" && "$pg" check --no-cache --confirm --output-format json marlin/marlin_cuda_kernel.cu) > "$o/marlin.json" 2> "$o/marlin.err"
echo "marlin check --confirm exit $? $(ms $s)ms" >> "$o/times.txt"
cat "$o/times.txt"
