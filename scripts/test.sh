#!/usr/bin/env bash
# test.sh — `npm test`: installs what is missing, builds everything, runs every test.
#   1. C++ (ctest): finite-difference gradient checks, LayerNorm lemmas, threads, validation
#   2. Vitest: pure page transforms, and the wasm module (both flavours) against the native CLI
#   3. End-to-end in headless Chromium: the built page, figures, interactions, both servers
#   4. The bad-input corpus (tests/robustness): engine API, URL parameters, UI values
#   5. WebGPU in headless Chromium (SwiftShader): the GPU path against the CPU path, fallbacks
# Ends with the closing line of each runner; exits non-zero on the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
stage() { printf '\n== %s (%ss)\n' "$1" "$(( $(date +%s) - start ))"; }

stage "setup"
bash scripts/setup.sh --browser

stage "native build"
bash scripts/build-native.sh

stage "C++ tests (ctest)"
(cd build && ctest --output-on-failure -j2)

stage "WebAssembly build"
bash scripts/build-wasm.sh > /dev/null

stage "Vitest (unit + wasm)"
npx vitest run

stage "page build"
npx vite build --logLevel warn

stage "end-to-end (Chromium)"
node tests/e2e/run.mjs

stage "robustness corpus (Vitest + Chromium)"
node tests/robustness/run.mjs

stage "WebGPU end-to-end (Chromium, SwiftShader)"
node tests/webgpu/run.mjs

stage "done"
