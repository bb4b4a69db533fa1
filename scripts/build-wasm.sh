#!/usr/bin/env bash
# build-wasm.sh — builds the WebAssembly flavours into public/wasm/: lnx-st.* (single-threaded),
# lnx-mt.* (threaded), their FMA flavours lnx-st-fma.*, lnx-mt-fma.* (docs/engine.md, "Flavours") and
# lnx-gpu.* (single-threaded + WebGPU).
# Needs emscripten (Debian's 3.1.6) and libeigen3-dev; scripts/setup.sh installs them.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # Debian's em++ needs acorn & co. from here
JOBS=${JOBS:-2}
source scripts/ccache-env.sh
emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release > build-wasm.log 2>&1 || { cat build-wasm.log; exit 1; }
cmake --build build-wasm -j"$JOBS" --target lnx-st lnx-mt lnx-st-fma lnx-mt-fma lnx-gpu ${EXTRA_TARGETS:-} >> build-wasm.log 2>&1 || { tail -60 build-wasm.log; exit 1; }
# The 3.1.6 pthread worker script is CommonJS; this marks it so under a "type": "module" package.
echo '{"type":"commonjs"}' > public/wasm/package.json
# The same for the plain Node programs built here (gemm_bench-st/mt.js and their worker scripts).
echo '{"type":"commonjs"}' > build-wasm/package.json
ls -l public/wasm/
