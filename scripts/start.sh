#!/usr/bin/env bash
# start.sh — `npm start`: installs what is missing, builds the engine and the page, serves it.
# The preview server sends COOP/COEP, so the page is cross-origin isolated and uses the threaded
# engine; PORT (default 5173) and HOST (default 127.0.0.1) choose where it listens.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build-wasm.sh > /dev/null
npx vite build --logLevel warn
echo "Serving on http://${HOST:-127.0.0.1}:${PORT:-5173}/  (Ctrl-C to stop)"
exec npx vite preview --host "${HOST:-127.0.0.1}" --port "${PORT:-5173}" --strictPort
