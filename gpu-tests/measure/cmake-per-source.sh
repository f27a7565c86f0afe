#!/usr/bin/env bash
# Measures what CMake and nvcc do with per-source options: a target built for 90
# (CUDA_ARCHITECTURES) whose file `extra.cu` has its own `--generate-code` for 80
# (set_source_files_properties COMPILE_OPTIONS), one `arch.cu` with `-arch=sm_80`, one
# `loop.cu` set through `set_property(SOURCE ... APPEND PROPERTY COMPILE_OPTIONS)` in a
# `foreach`, and a COMPILE_DEFINITIONS. Writes the compile commands CMake generates, which
# targets each object holds (cuobjdump), and whether an sm_90-only instruction
# (`barrier.cluster.arrive`) without a guard fails to build in each file (it does where sm_80 is built).
# Usage: cmake-per-source.sh OUTDIR   (needs cmake >= 3.18, nvcc on PATH)
set -uo pipefail
out=$1
mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
nvcc --version | tail -2 > "$out/nvcc-version.txt"
cmake --version | head -1 > "$out/cmake-version.txt"
cat > "$work/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.18)
project(p LANGUAGES CUDA)
add_library(k OBJECT plain.cu extra.cu arch.cu loop.cu defs.cu)
set_target_properties(k PROPERTIES CUDA_ARCHITECTURES 90)
set_source_files_properties(extra.cu PROPERTIES COMPILE_OPTIONS "--generate-code=arch=compute_80,code=sm_80")
set_source_files_properties(arch.cu PROPERTIES COMPILE_OPTIONS "-arch=sm_80")
set(LOOP_SRCS loop.cu)
foreach(f IN LISTS LOOP_SRCS)
  set_property(SOURCE ${f} APPEND PROPERTY COMPILE_OPTIONS "-gencode=arch=compute_80,code=sm_80")
endforeach()
set_source_files_properties(defs.cu PROPERTIES COMPILE_DEFINITIONS "FROM_SOURCE=1")
EOF
body='__global__ void k() {
#ifdef WITH_ASM
  asm volatile("barrier.cluster.arrive;");
#endif
}
#ifdef FROM_SOURCE
__global__ void from_source() {}
#endif'
for f in plain extra arch loop defs; do printf '%s\n' "$body" > "$work/$f.cu"; done
for mode in plain with_asm; do
  b="$work/build-$mode"
  extra=""; [ "$mode" = with_asm ] && extra="-DCMAKE_CUDA_FLAGS=-DWITH_ASM"
  cmake -S "$work" -B "$b" -G "Unix Makefiles" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON $extra \
    > "$out/configure-$mode.txt" 2>&1
  cp "$b/compile_commands.json" "$out/compile_commands-$mode.json" 2>/dev/null
  for f in plain extra arch loop defs; do
    (cd "$b" && make -k -f CMakeFiles/k.dir/build.make "CMakeFiles/k.dir/$f.cu.o") > "$out/build-$mode-$f.txt" 2>&1
    echo "$f: exit $?" >> "$out/build-status-$mode.txt"
    o="$b/CMakeFiles/k.dir/$f.cu.o"
    if [ -f "$o" ]; then
      { cuobjdump --list-elf "$o"; cuobjdump --list-ptx "$o"; } > "$out/objects-$mode-$f.txt" 2>&1
      cuobjdump -symbols "$o" 2>/dev/null | grep -c from_source > "$out/symbols-$mode-$f.txt"
    fi
  done
done
# nvcc alone: -arch with -gencode on one command line.
printf '%s\n' "$body" > "$work/n.cu"
(cd "$work" && nvcc -c n.cu -o n1.o --generate-code=arch=compute_90,code=[compute_90,sm_90] -arch=sm_80 \
  && cuobjdump --list-elf n1.o && cuobjdump --list-ptx n1.o) > "$out/nvcc-gencode-then-arch.txt" 2>&1
(cd "$work" && nvcc -c n.cu -o n2.o -arch=sm_80 --generate-code=arch=compute_90,code=[compute_90,sm_90] \
  && cuobjdump --list-elf n2.o && cuobjdump --list-ptx n2.o) > "$out/nvcc-arch-then-gencode.txt" 2>&1
echo done > "$out/done.txt"
