#!/usr/bin/env bash
# check-habits.sh — the checks on how the code is written, run by `npm test` before the builds
# (and alone: npm run check:habits):
#   - the type check of the page (svelte-check: TypeScript and Svelte; warnings fail too)
#   - the layering (dependency-cruiser, .dependency-cruiser.cjs): no import circles, lib/ never
#     imports figures/ or components, figures reach the engine through web/src/engine/
set -euo pipefail
cd "$(dirname "$0")/.."
echo "-- type check (svelte-check)"
npx svelte-check --tsconfig ./tsconfig.json --fail-on-warnings --output machine | tail -n 3
echo "-- layering (dependency-cruiser)"
npx depcruise web/src --config .dependency-cruiser.cjs --output-type err
