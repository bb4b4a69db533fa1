// trajectories.test.ts — the pinned short loss trajectories (tests/fixtures/trajectories.json, one
// per placement × optimizer, made by scripts/gen-fixtures.mjs with wasm-st) are reproduced by every
// WebAssembly flavour bit for bit, with 1 and 2 threads: WebAssembly arithmetic is the same on
// every CPU, and the trainer's sums do not depend on the thread count (docs/engine.md). The FMA
// flavours reproduce them with their fused kernel off (the default), and with it on stay within
// float rounding of them, bit-identical between 1 and 2 threads on this machine.
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
  val_loss?: number[];
}
const fixture = JSON.parse(readFileSync(new URL(`../../${FIXTURE}`, import.meta.url), 'utf8')) as { runs: Run[] };

const FLAVOURS: Flavour[] = ['st', 'mt', 'st-fma', 'mt-fma'];
const threaded = (f: Flavour) => f.startsWith('mt');

for (const flavour of FLAVOURS) {
  describe(`pinned trajectories (${flavour})`, () => {
    let m: LnxModule;
    beforeAll(async () => {
      m = await loadEngine(flavour);
    });
    it('the fixture covers every placement × optimizer the engine registers', () => {
      expect(fixture.runs.map((r) => r.config)).toEqual(fixtureConfigs(JSON.parse(m.schemaJson())));
    });
    for (const threads of threaded(flavour) ? [1, 2] : [1])
      it(`every trajectory is reproduced bit for bit (${threads} thread${threads > 1 ? 's' : ''})`, () => {
        m.setThreads(threads);
        for (const r of fixture.runs) {
          const got = trajectory(m, r.config);
          const name = `${r.config.placement}/${r.config.optimizer}`;
          expect(got.status, name).toBe('ok');
          expect(got.loss, name).toEqual(r.loss);
          expect(got.grad_norm, name).toEqual(r.grad_norm);
          expect(got.val_loss, name).toEqual(r.val_loss);
        }
      });
  });
}

for (const flavour of FLAVOURS.filter((f) => f.endsWith('-fma'))) {
  describe(`the fused kernel (${flavour})`, () => {
    let m: LnxModule;
    beforeAll(async () => {
      m = await loadEngine(flavour);
    });
    it('is off until asked for, and its documents say when it was on', () => {
      expect(m.buildFlavour()).toBe(`wasm-${flavour}`);
      expect(m.gemmFma()).toBe(false);
      const run = (fma: boolean) => {
        m.setGemmFma(fma);
        const t = new m.TrainRun(JSON.stringify({ ...fixture.runs[0].config, steps: 2 }));
        t.step(2);
        const doc = JSON.parse(t.resultJson(0));
        t.delete();
        return doc.engine;
      };
      expect(run(true)).toMatchObject({ build: `wasm-${flavour}`, fma: true });
      expect(run(false)).not.toHaveProperty('fma');
    });
    it('stays within float rounding of the pinned trajectories, the same bits on 1 and 2 threads', () => {
      const per: Record<number, ReturnType<typeof trajectory>[]> = {};
      m.setGemmFma(true);
      try {
        for (const threads of threaded(flavour) ? [1, 2] : [1]) {
          m.setThreads(threads);
          per[threads] = fixture.runs.map((r) => trajectory(m, r.config));
        }
      } finally {
        m.setGemmFma(false);
      }
      fixture.runs.forEach((r, i) => {
        const got = per[1][i];
        const name = `${r.config.placement}/${r.config.optimizer}`;
        expect(got.status, name).toBe('ok');
        got.loss.forEach((x: number, k: number) => expect(Math.abs(x - r.loss[k]), `${name} loss ${k}`).toBeLessThanOrEqual(1e-5 * Math.abs(r.loss[k])));
        if (per[2]) expect(per[2][i], name).toEqual(got);
      });
    });
  });
}
