#!/usr/bin/env bash
# test.sh — `npm test`: installs what is missing, builds everything, runs every test.
#   0. habits: type check, layering rules, format, lint and copy-paste (scripts/check-habits.sh),
#      alongside 1
#   1. C++ (ctest -LE claims): finite-difference gradient checks per op and per placement, optimizers
#      against their reference, LayerNorm lemmas, threads, validation (the toy claims: npm run test:claims)
#   1b. the wasm GEMM kernel against a double reference (bench/gemm_bench.cpp test), plain and FMA
#   2. Vitest: pure page transforms, and the wasm module (both flavours) against the native CLI; the
#      quick settings' verdicts (native CLI) alongside 1b–4 at the lowest priority (4's imported-file
#      part waits for them)
#   2b. alongside 1b–3: WebGPU in Node over Dawn (SwiftShader: every backend op, gradients, runs,
#      probe vs the CPU)
#   3. End-to-end in headless Chromium: the built page, figures, interactions, both servers; alongside
#      it, one after another: what a link unfolds into elsewhere (tests/e2e/web-found.mjs), Lighthouse's
#      deterministic categories at 100 in both languages (tests/audits/lighthouse.mjs), and the page
#      on WebGPU in headless Chromium (SwiftShader: the selection, fallbacks)
#   4. The bad-input corpus (tests/robustness): engine API, URL parameters, UI values, imported files
# Ends with the closing line of each runner; exits non-zero on the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
mkdir -p test-artifacts
: > test-artifacts/stages.tsv
# The machine's busy CPU time so far, in hundredths of a core-second (/proc/stat's first line: user,
# nice, system, irq, softirq, steal; USER_HZ is 100), or 0 where there is no /proc/stat.
busy() { local _c u n s i w q sq st _r; { read -r _c u n s i w q sq st _r < /proc/stat && echo $((u + n + s + q + sq + st)); } 2> /dev/null || echo 0; }
# Each stage's start and the machine's busy time then, for the table of stage times
# (scripts/stage-table.mjs → docs/test-stages.md): how many cores each stage kept busy.
stage() {
  printf '\n== %s (%ss)\n' "$1" "$(( $(date +%s) - start ))"
  printf '%s\t%s\t%s\n' "$(( $(date +%s) - start ))" "$(busy)" "$1" >> test-artifacts/stages.tsv
}

stage "setup"
bash scripts/setup.sh --browser

# Two lanes where the work is independent and asserts nothing about time: CI's 2 cores sit half
# idle in the browser stages (page loads, screenshots, waits) and in the links of the builds. The
# side lane's output is kept in a file and printed when the main lane has finished its stage; each
# side job's start and length go to test-artifacts/side-stages.tsv (the stage table's "alongside").
# The robustness corpus's imported-file part stays alone: it bounds how long a page's task may take.
mkdir -p test-artifacts
: > test-artifacts/side-stages.tsv
# Runs "$@" in the background into test-artifacts/$1.log; `finish NAME` waits, prints it, fails with it.
background() { local name=$1; shift; ("$@") > "test-artifacts/$name.log" 2>&1 & eval "bg_$name=$!"; }
finish() {
  local name=$1 pid rc=0
  eval "pid=\$bg_$name"
  wait "$pid" || rc=$?
  cat "test-artifacts/$name.log"
  return $rc
}
# CHILDREN_CPU: the CPU seconds (user + system) of this shell's finished children so far, from
# `times`' second line; set, not printed, because a command substitution would run `times` in a
# fresh process that has no children yet.
children_cpu() {
  local f; f=$(mktemp)
  times > "$f"
  read -r CHILDREN_CPU < <(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); n += a[1] * 60 + a[2] } printf "%.0f\n", n }' "$f")
  rm -f "$f"
}
# side NAME CMD…: one job of a side lane, timed, with the CPU seconds it and its processes used;
# stops the lane on failure.
side() {
  local name=$1 t0 c0 rc=0; shift
  t0=$(date +%s)
  children_cpu; c0=$CHILDREN_CPU
  printf '\n-- %s\n' "$name"
  "$@" || rc=$?
  children_cpu
  printf '%s\t%s\t%s\t%s\n' "$(( t0 - start ))" "$(( $(date +%s) - t0 ))" "$(( CHILDREN_CPU - c0 ))" "$name" >> test-artifacts/side-stages.tsv
  return $rc
}
export -f side children_cpu
export start

stage "native build and C++ tests; habits alongside (type check, layering, format, lint, copy and paste)"
background habits side "habits: type check, layering, format, lint, copy and paste" bash scripts/check-habits.sh
bash scripts/build-native.sh
(cd build && ctest --output-on-failure -j2 -LE claims)   # the toy-claims run is npm run test:claims

stage "WebAssembly build"
EXTRA_TARGETS="gemm_bench-st gemm_bench-mt gemm_bench_fma-st gemm_bench_fma-mt" bash scripts/build-wasm.sh > /dev/null

# the GPU path against the CPU path in Node (Dawn, SwiftShader): it needs only the wasm build, and
# runs alongside the GEMM tests, Vitest and the page build (it was the longest job of the browsers'
# side lane, which then outlasted the end-to-end run; about 90 s alone since Dawn's wait for the GPU
# no longer spins: tests/gpu-node/device.mjs pollGently)
# It runs on one core (taskset): SwiftShader spreads a dispatch over every core and its threads wait
# for each other, which on a machine busy with the other lane costs more than it gains (alone, on
# 2 cores: 135 CPU-s in 80 s; on one: 117 CPU-s in 117 s, 12 → 3 s of it in the kernel). It still
# ends long before the end-to-end run that waits for it.
one_core() { if command -v taskset > /dev/null 2>&1; then taskset -c 0 "$@"; else "$@"; fi; }
background gpu side "WebGPU in Node (Dawn, SwiftShader: the GPU path against the CPU path)" one_core node tests/gpu-node/run.mjs
# The quick settings' verdicts (tests/wasm/quick-verdicts.test.ts: seven runs of the native CLI, about
# 230 CPU-seconds, whose documents are kept between test runs under a hash of the binary, its
# libraries, the CPU and the arguments: tests/wasm/native-run-cache.ts; about 15 CPU-seconds when
# the engine has not changed) go alongside everything up to the robustness corpus, at the lowest
# priority: they take the cycles the browsers' stages leave idle (those stages kept the 2 cores 1.8
# busy, the corpus 1.6) rather than holding up the unit tests, and yield a core at once to the job
# that asks for it.
# (The lowest priority holds against this shell's own jobs. Chromium, which Playwright starts in a
# session of its own, is another of the kernel's autogroups, and autogroups share the cores evenly
# whatever their tasks' nice values: beside a browser these runs take their group's share.)
# Their last runs may go on into the robustness corpus's first parts, which bound no time (they ended
# 19–21 s after the end-to-end run's lanes, one core then idle): the corpus waits for them (the file
# they write when done, ROBUST_AFTER) before its imported-file part, which bounds how long a task
# of the page may take and so runs alone.
# then_mark FILE CMD…: runs CMD, then writes FILE whatever CMD's status (another stage waits for it).
then_mark() { local f=$1 rc=0; shift; "$@" || rc=$?; : > "$f"; return $rc; }
rm -f test-artifacts/quick.done
background quick then_mark test-artifacts/quick.done side "the quick settings' verdicts (native CLI, its runs kept while the engine is unchanged; at the lowest priority)" nice -n 19 npx vitest run tests/wasm/quick-verdicts.test.ts

stage "WebAssembly GEMM (SIMD128 kernel vs double reference; 1 vs 2 threads bitwise; the FMA flavour's kernel too)"
node --no-experimental-fetch build-wasm/gemm_bench-st.js test
node --no-experimental-fetch build-wasm/gemm_bench-mt.js test threads=2
node --no-experimental-fetch --experimental-wasm-relaxed-simd build-wasm/gemm_bench_fma-st.js test fma
node --no-experimental-fetch --experimental-wasm-relaxed-simd build-wasm/gemm_bench_fma-mt.js test threads=2 fma
finish habits

stage "Vitest (unit + wasm)"
npx vitest run --exclude tests/wasm/quick-verdicts.test.ts

stage "page build"
npx vite build --logLevel warn

stage "end-to-end (Chromium); alongside: what a link unfolds into, Lighthouse, WebGPU in Chromium, the end-to-end run's late part"
# the side lane, one job after another: card pictures and oEmbed figure pages (tests/e2e/web-found.mjs);
# Lighthouse's accessibility, best practices and SEO at 100 in both languages; the page on WebGPU in
# Chromium (SwiftShader); then the end-to-end run's late part (tests/e2e/run.mjs part('late'): checks that
# each open their own pages), which the main lane joins when its own checks are done: each late check
# goes to the first lane to reach it (E2E_SHARE, tests/e2e/harness.mjs makeChecker), so the two lanes
# end together whatever either's share of the machine was
# (The WebGPU end-to-end run is not held to one core as WebGPU in Node is. Alone it then took 148
# CPU-s instead of 174, but in a fresh clone's npm test the main lane's checks beside it, whose
# engine runs two threads, had the other core only, and the stage gained nothing: 2026-12-06.)
rm -rf test-artifacts/e2e-share && mkdir -p test-artifacts/e2e-share
export E2E_SHARE="$PWD/test-artifacts/e2e-share"
background browsers bash -c 'set -e
  side "found on the web (card pictures, oEmbed figure pages)" node tests/e2e/web-found.mjs
  side "Lighthouse: accessibility, best practices, SEO at 100 (en, zh)" node tests/audits/lighthouse.mjs
  side "WebGPU end-to-end (Chromium, SwiftShader)" node tests/webgpu/run.mjs
  side "end-to-end, its late part, shared with the main lane (checks that open pages of their own: links, themes, phone width, plain server, embeds, offline)" env E2E_PART=late node tests/e2e/run.mjs'
node tests/e2e/run.mjs
printf '\n-- alongside (%ss)\n' "$(( $(date +%s) - start ))"
finish gpu
finish browsers

stage "robustness corpus (Vitest + Chromium); alongside until its imported-file part: the quick settings' verdicts' last runs"
ROBUST_AFTER="$PWD/test-artifacts/quick.done" node tests/robustness/run.mjs
finish quick

stage "done"
node scripts/stage-table.mjs
