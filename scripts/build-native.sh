#!/usr/bin/env bash
# build-native.sh — configures and builds the native engine, CLI, tests and benchmarks in build/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ccache-env.sh
mkdir -p build
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${LNX_CMAKE_LAUNCHER[@]}" > build/configure.log 2>&1 || { cat build/configure.log; exit 1; }
cmake --build build -j"${JOBS:-2}" > build/build.log 2>&1 || { grep -E "error" -A5 build/build.log | head -80; exit 1; }
test -x build/lnx
