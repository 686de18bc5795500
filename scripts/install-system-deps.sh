#!/usr/bin/env bash
# System packages the project needs: Debian's Chromium for the browser tests (Playwright drives
# /usr/bin/chromium; browsers are never downloaded by Playwright itself).
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v tmux >/dev/null 2>&1 || need+=(tmux)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" fonts-dejavu-core fonts-noto-color-emoji
fi
