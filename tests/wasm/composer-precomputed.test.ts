// composer-precomputed.test.ts — the placement composer's precomputed documents (public/data/
// composer.json, scripts/precompute.mjs `composer`), which the build draws and a reader's page shows
// until the spec changes (lib/composer-run.svelte.ts), are what this engine computes for the page's
// own configs (lib/composer.ts REFERENCE_CONFIG, OPENING_CONFIG), to the last bit: a change of the
// engine or of the composer's opening settings fails here until the file is written again.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadEngine, runToEnd } from './load';
import { PROVENANCE_KEYS, numbersOf } from '../../web/src/lib/doc-compare';
import { COMPOSER_FILE, OPENING_CONFIG, REFERENCE_CONFIG, type ComposerPrecomputed } from '../../web/src/lib/composer';

const file = JSON.parse(readFileSync(new URL(`../../public/${COMPOSER_FILE}`, import.meta.url), 'utf8')) as ComposerPrecomputed;
const AGAIN = 'write it again: node scripts/precompute.mjs composer';

describe(`public/${COMPOSER_FILE}`, () => {
  it('holds the reference lines and the opening composed placement as this engine computes them, bit for bit', async () => {
    const m = await loadEngine('mt');
    for (const [part, config] of [
      ['reference', REFERENCE_CONFIG],
      ['composed', OPENING_CONFIG],
    ] as const) {
      const stored = file[part] as unknown as { engine: { version: string }; config: Record<string, unknown>; precomputed?: boolean };
      expect(stored.precomputed, `${part}: not stamped precomputed`).toBe(true);
      const doc = runToEnd(new m.ExperimentRun('init-profile', JSON.stringify(config)), 1);
      expect(stored.engine.version, `${part}: written by engine ${stored.engine.version}, this is ${doc.engine.version}; ${AGAIN}`).toBe(doc.engine.version);
      expect(stored.config, `${part}: its config is not the page's; ${AGAIN}`).toEqual(doc.config);
      expect(numbersOf(stored, PROVENANCE_KEYS), `${part}: its numbers are not this engine's; ${AGAIN}`).toEqual(numbersOf(doc, PROVENANCE_KEYS));
    }
  });
});
