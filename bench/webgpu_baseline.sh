#!/usr/bin/env bash
# webgpu_baseline.sh — builds lnx-gpu at another commit into build/gpu-baseline/ (lnx-gpu.mjs,
# lnx-gpu.wasm and a BASELINE note naming the commit), so that the host-time measurements
# (bench/webgpu_host.mjs in Node, bench/webgpu_bench.mjs in Chromium) sample it and this build in
# turn, in one sitting: "before" and "after" a change of the recording path.
#   bench/webgpu_baseline.sh [COMMIT]    default: a0be0cc, main before the dispatch list (issue 32)
# Uses a temporary git worktree and the same Emscripten build as scripts/build-wasm.sh (ccache makes
# the engine's objects a cache hit). Leaves out: the other flavours (only lnx-gpu is measured).
set -euo pipefail
cd "$(dirname "$0")/.."
COMMIT=${1:-a0be0cc}
ROOT=$(pwd -P)
TMP=$(mktemp -d /tmp/lnx-gpu-baseline.XXXXXX)
cleanup() { git worktree remove --force "$TMP/src" 2> /dev/null || true; rm -rf "$TMP"; }
trap cleanup EXIT
git worktree add --detach "$TMP/src" "$COMMIT" > /dev/null
cd "$TMP/src"
export NODE_PATH=/usr/share/nodejs
source scripts/ccache-env.sh
emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release > "$TMP/build.log" 2>&1 || { cat "$TMP/build.log"; exit 1; }
cmake --build build-wasm -j"${JOBS:-2}" --target lnx-gpu >> "$TMP/build.log" 2>&1 || { tail -40 "$TMP/build.log"; exit 1; }
mkdir -p "$ROOT/build/gpu-baseline"
cp public/wasm/lnx-gpu.mjs public/wasm/lnx-gpu.wasm "$ROOT/build/gpu-baseline/"
echo "$(git log -1 --format='%h %cs') (bench/webgpu_baseline.sh)" > "$ROOT/build/gpu-baseline/BASELINE"
echo "webgpu-baseline: build/gpu-baseline/ is lnx-gpu at $(cat "$ROOT/build/gpu-baseline/BASELINE")"
