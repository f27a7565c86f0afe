#!/usr/bin/env bash
# Installs Neovim from Debian's packages for the editor end-to-end test
# (cli/tests/neovim.rs, which prints SKIP when nvim is missing). Called by .ci/run.
set -euo pipefail
if command -v nvim >/dev/null 2>&1; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends neovim >/dev/null
nvim --version | head -1
