// trajectories.test.ts — the pinned short loss trajectories (tests/fixtures/trajectories.json, one
// per placement × optimizer, made by scripts/gen-fixtures.mjs with wasm-st) are reproduced by both
// WebAssembly flavours bit for bit, with 1 and 2 threads: WebAssembly arithmetic is the same on
// every CPU, and the trainer's sums do not depend on the thread count (docs/engine.md).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LnxModule } from '../../public/wasm/lnx';
// @ts-expect-error — plain ES module
import { FIXTURE, fixtureConfigs, trajectory } from '../../scripts/gen-fixtures.mjs';
import { loadEngine, type Flavour } from './load';

interface Run {
  config: Record<string, unknown>;
  status: string;
  loss: number[];
  grad_norm: number[];
}
const fixture = JSON.parse(readFileSync(new URL(`../../${FIXTURE}`, import.meta.url), 'utf8')) as { runs: Run[] };

for (const flavour of ['st', 'mt'] as Flavour[]) {
  describe(`pinned trajectories (${flavour})`, () => {
    let m: LnxModule;
    beforeAll(async () => {
      m = await loadEngine(flavour);
    });
    it('the fixture covers every placement × optimizer the engine registers', () => {
      expect(fixture.runs.map((r) => r.config)).toEqual(fixtureConfigs(JSON.parse(m.schemaJson())));
    });
    for (const threads of flavour === 'mt' ? [1, 2] : [1])
      it(`every trajectory is reproduced bit for bit (${threads} thread${threads > 1 ? 's' : ''})`, () => {
        m.setThreads(threads);
        for (const r of fixture.runs) {
          const got = trajectory(m, r.config);
          const name = `${r.config.placement}/${r.config.optimizer}`;
          expect(got.status, name).toBe('ok');
          expect(got.loss, name).toEqual(r.loss);
          expect(got.grad_norm, name).toEqual(r.grad_norm);
        }
      });
  });
}
