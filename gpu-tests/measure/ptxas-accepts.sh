#!/usr/bin/env bash
# Whether ptxas accepts one PTX instruction, for each target given: the instruction in a
# kernel of its own with `.b32` registers r0..r7 declared, assembled with `ptxas -arch`.
# Usage: ptxas-accepts.sh 'INSTRUCTION;' sm_90a sm_100a ...   (needs ptxas on PATH)
set -u
insn=$1; shift
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
ptxas --version | tail -1
for arch in "$@"; do
  printf '.version 9.0\n.target %s\n.address_size 64\n.visible .entry k() {\n.reg .b32 r<8>;\n%s\nret;\n}\n' \
    "$arch" "$insn" > "$work/k.ptx"
  if msg=$(ptxas -arch="$arch" "$work/k.ptx" -o "$work/k.cubin" 2>&1); then
    echo "$arch accepted: $insn"
  else
    echo "$arch rejected: $insn: $(echo "$msg" | head -2 | tr '\n' ' ')"
  fi
done
