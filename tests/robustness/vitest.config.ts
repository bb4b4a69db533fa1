// vitest.config.ts — Vitest for the engine half of the robustness corpus (tests/robustness/), kept
// apart from the unit/wasm suites: it loads both wasm flavours and writes a report file.
// Run: npx vitest run --config tests/robustness/vitest.config.ts   (tests/robustness/run.mjs does)
import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['tests/robustness/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120000,
    hookTimeout: 120000,
  },
});
