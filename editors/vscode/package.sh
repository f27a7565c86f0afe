#!/usr/bin/env bash
# Packages the VS Code extension as a .vsix: installs the locked npm dependencies, compiles the
# TypeScript, and runs vsce with the workspace's version (Cargo.toml, the one version).
#
#   editors/vscode/package.sh [OUT_DIR]       # default: editors/vscode/
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' "$here/../../Cargo.toml")
[ -n "$version" ] || { echo "no version in Cargo.toml's [workspace.package]" >&2; exit 2; }
cd "$here"
npm ci --no-audit --no-fund --loglevel=error
mkdir -p "$out"
npx vsce package "$version" --no-update-package-json --no-git-tag-version \
  --skip-license --allow-missing-repository --out "$out/ptxguard-$version.vsix"
