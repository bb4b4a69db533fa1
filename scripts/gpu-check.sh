#!/usr/bin/env bash
# gpu-check.sh — the WebGPU path on this machine's GPU, in one command (scripts/gpu-check.mjs):
# adapter, correctness against the CPU engine, ms per step and per probe pass, dispatches, matmul
# GFLOP/s, Figure 4's grid; one JSON file. Needs no network: only the built wasm (public/wasm/),
# node_modules/webgpu (its dist/linux-x64/dawn.node) and node_modules/typescript, plus a Vulkan
# loader and the GPU's ICD (docs/webgpu.md, "A real GPU"). Flags go to gpu-check.mjs
# (--swiftshader, --quick, --grid-budget S, --skip-checks, --out FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
exec node scripts/gpu-check.mjs "$@"
