#!/usr/bin/env bash
# What the packaging tests need (cli/tests/packaging.rs, cli/tests/vscode_extension.rs; they
# print SKIP without it): python3 with venv and pip (they pip-install maturin and pre-commit
# themselves), git, node 20+ with npm, unzip. Called by .ci/run.
set -euo pipefail
need=()
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need+=(python3 python3-venv python3-pip)
command -v git >/dev/null 2>&1 || need+=(git)
command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
command -v unzip >/dev/null 2>&1 || need+=(unzip)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
python3 --version
node --version
