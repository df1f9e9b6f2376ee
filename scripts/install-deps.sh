#!/usr/bin/env bash
# Installs the Debian packages Emend builds with, when they are missing (needs root or sudo).
# Usage: bash scripts/install-deps.sh
set -euo pipefail
packages=(pkg-config libffi-dev binutils gcc g++ libhunspell-dev hunspell-en-us hunspell-en-gb iso-codes
          libcmark-gfm-dev libcmark-gfm-extensions-dev libcurl4-openssl-dev libcjson-dev cmake ninja-build
          curl python3 python3-pip unzip man-db zsh fish tmux emacs-nox elpa-eglot elpa-lsp-mode libseccomp-dev
          libgtk-4-dev libgtksourceview-5-dev xvfb xauth libxtst-dev hunspell
          hunspell-de-de libexttextcat-2.0-0 libexttextcat-data)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "error: the Swift toolchain (6.x) is not on PATH" >&2; exit 2; }
