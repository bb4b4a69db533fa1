#!/usr/bin/env bash
# setup.sh — installs what a fresh Debian machine lacks, idempotently: the C++ toolchain pieces
# (Emscripten, Eigen, GoogleTest, CMake), Chromium for the browser tests (only when asked), and
# the npm packages (npm ci). Safe to run again: it skips what is already there.
#   scripts/setup.sh            toolchain + npm packages
#   scripts/setup.sh --browser  also Chromium (for the end-to-end tests)
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v em++ >/dev/null 2>&1 || need+=(emscripten)
[ -f /usr/include/eigen3/Eigen/Core ] || need+=(libeigen3-dev)
[ -f /usr/include/gtest/gtest.h ] || need+=(libgtest-dev)
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v g++ >/dev/null 2>&1 || need+=(g++)
# the compiler cache of the builds (scripts/ccache-env.sh)
command -v ccache >/dev/null 2>&1 || need+=(ccache)
command -v node >/dev/null 2>&1 || need+=(nodejs npm)
if [ "${1:-}" = "--browser" ]; then
  [ -x /usr/bin/chromium ] || need+=(chromium)
  # Screenshots of the Chinese page need a CJK font (headless Chromium draws boxes otherwise).
  fc-list 2>/dev/null | grep -qi "wqy\|noto.*cjk" || need+=(fonts-wqy-microhei)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]} (apt)"
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# npm packages: reinstall only when package-lock.json changed since the last install.
stamp=node_modules/.lnx-lock-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi
