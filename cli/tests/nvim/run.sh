#!/bin/sh
# End-to-end: headless Neovim attached to `ptxguard server` opens a file and writes what it got
# back (diagnostics, a hover) as JSON.
# Usage: run.sh PTXGUARD_BINARY FILE.cu OUT.json
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 3 ]; then
    echo "usage: $0 PTXGUARD_BINARY FILE.cu OUT.json" >&2
    exit 2
fi
PTXGUARD_BIN=$1 PTXGUARD_OUT=$3 timeout 120 \
    nvim --headless -n -i NONE --noplugin -u "$here/init.lua" "$2"
