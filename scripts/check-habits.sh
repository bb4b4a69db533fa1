#!/usr/bin/env bash
# check-habits.sh — the checks on how the code is written, run by `npm test` before the builds
# (and alone: npm run check:habits):
#   - the type check of the page (svelte-check: TypeScript and Svelte; warnings fail too)
#   - the layering (dependency-cruiser, .dependency-cruiser.cjs): no import circles, lib/ never
#     imports figures/ or components, figures reach the engine through web/src/engine/
#   - the format (Prettier with its Svelte plugin, .prettierrc.json; `npx prettier --write …` fixes it;
#     the C++ with clang-format, .clang-format; `clang-format -i FILE` fixes it)
#   - the linter (ESLint with typescript-eslint and eslint-plugin-svelte, eslint.config.js)
#   Prettier and ESLint go through scripts/lint-cached.mjs: a file known to pass (its path and bytes,
#   the tool, its version and configuration unchanged) is not checked again (LNX_NO_LINT_CACHE=1
#   checks every file)
#   - copy and paste (jscpd, .jscpd.json): fails when more than its threshold of the lines repeat
#     (0.15 %: lower it as copies go, never raise it. Set when 13 clones were 0.14 % of the lines;
#     clang-format then laid the same C++ out on more lines, so that clones of under 6 lines grew to
#     6 or more: 15 clones, 0.17 %, with no code copied; two removed since: 13 clones, 0.15 %)
set -euo pipefail
cd "$(dirname "$0")/.."
echo "-- type check (svelte-check)"
npx svelte-check --tsconfig ./tsconfig.json --fail-on-warnings --output machine | tail -n 3
echo "-- layering (dependency-cruiser)"
npx depcruise web/src --config .dependency-cruiser.cjs --output-type err
echo "-- format (Prettier)"
node scripts/lint-cached.mjs prettier web/src tests scripts bench eslint.config.js
git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run --Werror
echo "-- lint (ESLint)"
node scripts/lint-cached.mjs eslint web/src tests scripts bench eslint.config.js
echo "-- copy and paste (jscpd)"
npx jscpd --config .jscpd.json --silent
