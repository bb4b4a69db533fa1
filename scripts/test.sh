#!/usr/bin/env bash
# test.sh — `npm test`: installs what is missing, builds everything, runs every test.
#   0. habits: type check, layering rules, format, lint and copy-paste (scripts/check-habits.sh)
#   1. C++ (ctest -LE claims): finite-difference gradient checks per op and per placement, optimizers
#      against their reference, LayerNorm lemmas, threads, validation (the toy claims: npm run test:claims)
#   1b. the wasm GEMM kernel against a double reference (bench/gemm_bench.cpp test), plain and FMA
#   2. Vitest: pure page transforms, and the wasm module (both flavours) against the native CLI
#   3. End-to-end in headless Chromium: the built page, figures, interactions, both servers
#   3b. What a link unfolds into elsewhere (tests/e2e/web-found.mjs) and Lighthouse's deterministic
#      categories at 100 in both languages (tests/audits/lighthouse.mjs)
#   4. The bad-input corpus (tests/robustness): engine API, URL parameters, UI values
#   5. WebGPU in Node over Dawn (SwiftShader): every backend op, gradients, runs, probe vs the CPU
#      (alongside 3, which leaves a core idle much of the time)
#   6. WebGPU in headless Chromium (SwiftShader): the page on WebGPU, the selection, fallbacks
# Ends with the closing line of each runner; exits non-zero on the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
mkdir -p test-artifacts
: > test-artifacts/stages.tsv
# Each stage's start, for the table of stage times (scripts/stage-table.mjs → docs/test-stages.md).
stage() {
  printf '\n== %s (%ss)\n' "$1" "$(( $(date +%s) - start ))"
  printf '%s\t%s\n' "$(( $(date +%s) - start ))" "$1" >> test-artifacts/stages.tsv
}

stage "setup"
bash scripts/setup.sh --browser

# Two stages at a time where they are independent and neither asserts anything about time: CI's
# 2 cores sit half idle in the browser stages (page loads, SwiftShader's waits). The second one's
# output is kept in a file and printed after the first finishes. (The native and WebAssembly builds
# are not overlapped: both keep the 2 cores busy, and together they measured 240 s against 222 s.)
mkdir -p test-artifacts
# Runs "$@" in the background into test-artifacts/$1.log; `finish NAME` waits, prints it, fails with it.
background() { local name=$1; shift; ("$@") > "test-artifacts/$name.log" 2>&1 & eval "bg_$name=$!"; }
finish() {
  local name=$1 pid rc=0
  eval "pid=\$bg_$name"
  wait "$pid" || rc=$?
  cat "test-artifacts/$name.log"
  return $rc
}

stage "habits: type check, layering, format, lint, copy and paste"
bash scripts/check-habits.sh

stage "native build"
bash scripts/build-native.sh

stage "C++ tests (ctest; the toy-claims run is npm run test:claims)"
(cd build && ctest --output-on-failure -j2 -LE claims)

stage "WebAssembly build"
EXTRA_TARGETS="gemm_bench-st gemm_bench-mt gemm_bench_fma-st gemm_bench_fma-mt" bash scripts/build-wasm.sh > /dev/null

stage "WebAssembly GEMM (SIMD128 kernel vs double reference; 1 vs 2 threads bitwise; the FMA flavour's kernel too)"
node --no-experimental-fetch build-wasm/gemm_bench-st.js test
node --no-experimental-fetch build-wasm/gemm_bench-mt.js test threads=2
node --no-experimental-fetch --experimental-wasm-relaxed-simd build-wasm/gemm_bench_fma-st.js test fma
node --no-experimental-fetch --experimental-wasm-relaxed-simd build-wasm/gemm_bench_fma-mt.js test threads=2 fma

stage "Vitest (unit + wasm)"
npx vitest run

stage "page build"
npx vite build --logLevel warn

stage "end-to-end (Chromium), and WebGPU in Node (Dawn, SwiftShader: the GPU path against the CPU path) alongside"
# The page tests leave a core idle much of the time (page loads, waits for runs); the Node GPU
# checks fill it.
background gpunode node tests/gpu-node/run.mjs
node tests/e2e/run.mjs
printf '\n-- WebGPU in Node (%ss)\n' "$(( $(date +%s) - start ))"
finish gpunode

stage "found on the web (Chromium: card pictures, oEmbed figure pages) and Lighthouse (accessibility, best practices, SEO at 100)"
node tests/e2e/web-found.mjs
node tests/audits/lighthouse.mjs

stage "robustness corpus (Vitest + Chromium)"
node tests/robustness/run.mjs

stage "WebGPU end-to-end (Chromium, SwiftShader)"
node tests/webgpu/run.mjs

stage "done"
node scripts/stage-table.mjs
