// offline.test.ts — which of the engine's flavours the service worker keeps for offline use
// (lib/offline.ts offlineFlavours): the one a page it serves runs, and that one's fallback.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { cpuGlue } from '../../web/src/engine/backend-choice';
import { offlineFlavours } from '../../web/src/lib/offline';

describe('offlineFlavours', () => {
  it.each([
    [true, ['mt-fma', 'mt']],
    [false, ['mt']],
  ])('relaxed SIMD %s: keeps %j', (relaxed, kept) => {
    expect(offlineFlavours(relaxed)).toEqual(kept);
  });
  it('keeps what a page the worker serves (cross-origin isolated) loads, first choice and fallback', () => {
    for (const relaxed of [true, false]) {
      const { glue, fallback } = cpuGlue(true, relaxed);
      expect(offlineFlavours(relaxed)).toEqual([glue, ...(fallback ? [fallback] : [])]);
    }
  });
  it.runIf(existsSync('public/wasm/lnx-mt.wasm'))('each kept flavour has its glue, wasm and pthread worker in public/wasm/', () => {
    for (const f of [...offlineFlavours(true), ...offlineFlavours(false)])
      for (const ext of ['mjs', 'wasm', 'worker.js']) expect(existsSync(`public/wasm/lnx-${f}.${ext}`), `lnx-${f}.${ext}`).toBe(true);
  });
});
