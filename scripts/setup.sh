#!/usr/bin/env bash
# setup.sh — installs what a fresh Debian machine lacks, idempotently: the C++ toolchain pieces
# (Emscripten, Eigen, GoogleTest, CMake), a CJK font (the build sets the Chinese card picture in it;
# without one that picture is drawn without its Chinese text), Chromium for the browser tests (only
# when asked), and the npm packages (npm ci). Safe to run again: it skips what is already there.
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
# the C++ format check (scripts/check-habits.sh, .clang-format)
command -v clang-format >/dev/null 2>&1 || need+=(clang-format)
command -v node >/dev/null 2>&1 || need+=(nodejs npm)
# The Chinese card picture (scripts/og-picture.mjs) and screenshots of the Chinese page need a CJK
# font (headless Chromium draws boxes otherwise).
[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || ls /usr/share/fonts/*/noto*/NotoSansCJK-Regular.ttc >/dev/null 2>&1 || need+=(fonts-wqy-microhei)
if [ "${1:-}" = "--browser" ]; then
  [ -x /usr/bin/chromium ] || need+=(chromium)
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
