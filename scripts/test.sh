#!/usr/bin/env bash
# test.sh — `npm test`: installs what is missing, builds everything, runs every test.
#   1. C++ (ctest -LE claims): finite-difference gradient checks per op and per placement, optimizers
#      against their reference, LayerNorm lemmas, threads, validation (the toy claims: npm run test:claims)
#   1b. the wasm GEMM kernel against a double reference (bench/gemm_bench.cpp test)
#   2. Vitest: pure page transforms, and the wasm module (both flavours) against the native CLI
#   3. End-to-end in headless Chromium: the built page, figures, interactions, both servers
#   4. The bad-input corpus (tests/robustness): engine API, URL parameters, UI values
#   5. WebGPU in Node over Dawn (SwiftShader): every backend op, gradients, runs, probe vs the CPU
#   6. WebGPU in headless Chromium (SwiftShader): the page on WebGPU, the selection, fallbacks
# Ends with the closing line of each runner; exits non-zero on the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
stage() { printf '\n== %s (%ss)\n' "$1" "$(( $(date +%s) - start ))"; }

stage "setup"
bash scripts/setup.sh --browser

stage "native build"
bash scripts/build-native.sh

stage "C++ tests (ctest; the toy-claims run is npm run test:claims)"
(cd build && ctest --output-on-failure -j2 -LE claims)

stage "WebAssembly build"
EXTRA_TARGETS="gemm_bench-st gemm_bench-mt" bash scripts/build-wasm.sh > /dev/null

stage "WebAssembly GEMM (SIMD128 kernel vs double reference; 1 vs 2 threads bitwise)"
node --no-experimental-fetch build-wasm/gemm_bench-st.js test
node --no-experimental-fetch build-wasm/gemm_bench-mt.js test threads=2

stage "Vitest (unit + wasm)"
npx vitest run

stage "page build"
npx vite build --logLevel warn

stage "end-to-end (Chromium)"
node tests/e2e/run.mjs

stage "robustness corpus (Vitest + Chromium)"
node tests/robustness/run.mjs

stage "WebGPU in Node (Dawn, SwiftShader): the GPU path against the CPU path"
node tests/gpu-node/run.mjs

stage "WebGPU end-to-end (Chromium, SwiftShader)"
node tests/webgpu/run.mjs

stage "done"
