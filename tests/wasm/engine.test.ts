// engine.test.ts — the WebAssembly module against the native CLI, in Node.
//
// Both flavours must reproduce the native `lnx` for the same seed. Tolerances, from measured
// rounding (float everywhere; the builds differ in SIMD width and FMA, so sums round differently):
//   probe statistics   1e-6 relative (measured ≤ 3e-8 on this config)
//   training losses    2e-4 relative over 10 Adam steps (measured ≈ 1e-5; Adam's m/√v turns
//                      last-bit differences of small gradient entries into O(lr) steps, so the gap
//                      grows with steps, and is still far below anything a plot can show)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectClose, loadEngine, numbers, type Flavour } from './load';
import { MAX_MODEL_BYTES, modelBytes } from '../../web/src/lib/cost';
import { validateProbe } from '../../web/src/lib/probe-settings';
import { inputsFrom, validateGrid } from '../../web/src/lib/grid-settings';
import { GRID_DEFAULTS } from '../../web/src/generated/engine-schema';

const LNX = new URL('../../build/lnx', import.meta.url).pathname;
const PROBE = { layers: 3, d: 32, d_ff: 64, vocab: 50, seq: 8, batch: 4, seeds: [0, 1], batches: 3, depth_batches: 2, depths: [2, 3] };
const TRAIN = { placement: 'pre', warmup: 4, lr: 0.003, steps: 10, layers: 2, d: 32, d_ff: 64, vocab: 64, seq: 16, batch: 4 };

function native(args: string[]): any {
  return JSON.parse(execFileSync(LNX, [...args, '--json', '--threads', '1'], { encoding: 'utf8' }));
}

function flags(cfg: Record<string, unknown>): string[] {
  return Object.entries(cfg).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, Array.isArray(v) ? v.join(',') : String(v)]);
}

/** Every number in a result tree except the `engine` header, in a fixed order. */
describe.skipIf(!existsSync(LNX))('wasm engine agrees with the native CLI', () => {
  const nativeProbe = existsSync(LNX) ? native(['probe', ...flags(PROBE)]) : null;
  const nativeTrain = existsSync(LNX) ? native(['train', ...flags(TRAIN)]) : null;

  for (const flavour of ['st', 'mt'] as Flavour[]) {
    describe(flavour, () => {
      it('reports its version and flavour', async () => {
        const m = await loadEngine(flavour);
        expect(m.engineVersion()).toBe(nativeProbe.engine.version);
        expect(m.buildFlavour()).toBe(`wasm-${flavour}`);
      });

      it('draws the same probe as the native build, stepping in chunks', async () => {
        const m = await loadEngine(flavour);
        if (flavour === 'mt') m.setThreads(2);
        const run = new m.ProbeRun(JSON.stringify(PROBE));
        let last = 0;
        while (!run.done()) {
          const f = run.step(2);
          expect(f).toBeGreaterThanOrEqual(last);
          last = f;
        }
        const result = JSON.parse(run.resultJson());
        run.delete();
        expect(result.config).toEqual(nativeProbe.config);
        expectClose(numbers(result), numbers(nativeProbe), 1e-6);
      });

      it('trains the same curve as the native build', async () => {
        const m = await loadEngine(flavour);
        const run = new m.TrainRun(JSON.stringify(TRAIN));
        while (run.status() === 'running') run.step(3);
        const result = JSON.parse(run.resultJson(0));
        run.delete();
        expect(result.status).toBe('ok');
        expect(result.lr_schedule).toEqual(nativeTrain.lr_schedule);
        expectClose(result.loss, nativeTrain.loss, 2e-4);
      });

      it('accepts 64-bit seeds (wasm32 has a 32-bit long)', async () => {
        const m = await loadEngine(flavour);
        const cfg = { ...TRAIN, steps: 1, seed: 2 ** 40, chain_seed: 2 ** 52 };
        const run = new m.TrainRun(JSON.stringify(cfg));
        run.step(1);
        const out = JSON.parse(run.resultJson(0));
        run.delete();
        expect(out.config.seed).toBe(2 ** 40);
        expect(out.config.chain_seed).toBe(2 ** 52);
        const grid = new m.GridRun(JSON.stringify({ chain_seed: 1234, seeds: [0, 2 ** 33], steps: 1, layers: 1, d: 16, d_ff: 16, vocab: 16, seq: 4, batch: 1 }));
        grid.delete();
      });

      it('refuses a model over 1 GiB exactly where the page\'s form does (lib/cost.ts modelBytes)', async () => {
        const m = await loadEngine(flavour);
        // one run: a grid's runs together have a rule of their own (next test)
        const base = { ...GRID_DEFAULTS, steps: 1, layers: 16, d: 512, d_ff: 2048, seq: 128, placements: ['post'], warmups: [0], lrs: [0.001], seeds: [0] };
        // the batch at which the page's estimate crosses the limit, then one either side
        let b = 1;
        expect(modelBytes({ ...base, batch: 1 }, 2)).toBeLessThan(MAX_MODEL_BYTES);
        while (modelBytes({ ...base, batch: b + 1 }, 2) <= MAX_MODEL_BYTES) b++;
        expect(b).toBeLessThan(16);
        const plan = (batch: number) => () => m.gridPlanJson(JSON.stringify({ ...base, batch }));
        expect(plan(b)).not.toThrow();
        expect(plan(b + 1)).toThrowError(/too large.*lower layers, d, d_ff, vocab, seq or batch/);
      });

      it('refuses a grid whose runs together do not fit exactly where the page\'s form does (issue 27: 24 layers, d 512, d_ff 512, batch 8, seq 128, 60 runs ran out of memory after 8 s)', async () => {
        const m = await loadEngine(flavour);
        const model = { layers: 24, d: 512, d_ff: 512, batch: 8, seq: 128 };
        const grid = (placements: string[], warmups: number[], seeds: number) => ({ placements, lrs: [0.001, 0.003], warmups, seeds });
        const form = (g: ReturnType<typeof grid>) =>
          validateGrid(
            { ...inputsFrom(null), placements: g.placements, lrs: g.lrs.join(', '), warmups: g.warmups.join(', '), seeds: String(g.seeds), steps: '10', model: Object.fromEntries(Object.entries(model).map(([k, v]) => [k, String(v)])) },
            null,
          ).errors.model ?? null;
        const engine = (g: ReturnType<typeof grid>) => () =>
          m.gridPlanJson(JSON.stringify({ ...model, steps: 10, ...g, seeds: Array.from({ length: g.seeds }, (_, i) => i) }));
        // 5 placements x 2 lrs x 3 warm-ups x 2 seeds = 60 runs: refused by both, before anything is allocated
        const big = grid(['post', 'pre', 'peri', 'deepnorm', 'admin'], [0, 100, 300], 2);
        expect(form(big)).toBe('err.gridMemory');
        expect(engine(big)).toThrowError(/grid too large: its 60 runs/);
        // one run fits (its own rule); both take runs up to the same count, and refuse one more
        const few = (seeds: number) => grid(['post'], [0], seeds);
        expect(form(few(1))).toBeNull();
        let s = 1;
        while (s < 4 && form(few(s + 1)) == null) s++;
        expect(s).toBeLessThan(4);
        expect(engine(few(s))).not.toThrow();
        expect(engine(few(s + 1))).toThrowError(/grid too large/);
      });

      it('refuses a probe too large for memory exactly where the page\'s form does (issue 28: d 512, d_ff 2048, batch 2, seq 32, depths to 40)', async () => {
        const m = await loadEngine(flavour);
        const model = { d: 512, d_ff: 2048, batch: 2, seq: 32 };
        const form = (depths: number[]) => validateProbe({ seeds: 1, batches: 1, depths, small: false, model }, null).model ?? null;
        const engine = (depths: number[]) => () => new m.ProbeRun(JSON.stringify({ ...model, layers: 6, seeds: [0], batches: 1, depth_batches: 1, depths })).delete();
        expect(form([6, 40])).toBe('err.memory');
        expect(engine([6, 40])).toThrowError(/too large/);
        // the deepest depth both take, and one more that both refuse
        let L = 6;
        while (form([6, L + 1]) == null) L++;
        expect(L).toBeLessThan(40);
        expect(engine([6, L + 1])).toThrowError(/too large/);
        expect(engine([6, L])).not.toThrow();
      });

      it('expands a grid config (gridPlanJson) into the GridRun\'s runs, each a TrainRun config with the same curve', async () => {
        const m = await loadEngine(flavour);
        const cfg = { layers: 1, d: 16, d_ff: 32, vocab: 16, seq: 4, batch: 2, steps: 3, warmups: [0, 2], lrs: [1e-3], seeds: [0, 1] };
        const plan = JSON.parse(m.gridPlanJson(JSON.stringify(cfg)));
        const grid = new m.GridRun(JSON.stringify(cfg));
        while (!grid.done()) grid.step(3);
        const doc = JSON.parse(grid.resultJson(0));
        grid.delete();
        expect(plan.config).toEqual(doc.config);
        expect(plan.runs.map((r: { placement: string; warmup: number; lr: number; seed: number }) => [r.placement, r.warmup, r.lr, r.seed])).toEqual(
          doc.runs.map((r: { placement: string; warmup: number; lr: number; seed: number }) => [r.placement, r.warmup, r.lr, r.seed]),
        );
        plan.runs.forEach((r: { train: object }, i: number) => {
          const run = new m.TrainRun(JSON.stringify(r.train));
          run.step(3);
          expect(JSON.parse(run.resultJson(0)).loss).toEqual(doc.runs[i].loss); // same code path: bit-identical
          run.delete();
        });
        expect(() => m.gridPlanJson('{"lrs":[-1]}')).toThrowError(/lnx: lrs entry/);
        expect(() => m.gridPlanJson('{"seeds":[0,0]}')).toThrowError(/lnx: seeds contains a duplicate/);
      });

      it('turns invalid arguments into JS Errors with the engine message', async () => {
        const m = await loadEngine(flavour);
        expect(() => new m.ProbeRun('{"layers":0}')).toThrowError(/lnx: layers = 0 is out of range/);
        expect(() => new m.ProbeRun('not json')).toThrowError(/lnx: config JSON/);
        expect(() => new m.GridRun('{"placements":["sideways"]}')).toThrowError(/lnx: placements entry must be/);
        expect(() => new m.TrainRun('{"lr":-1}')).toThrowError(/lnx: lr/);
        const run = new m.TrainRun(JSON.stringify({ ...TRAIN, steps: 2 }));
        expect(() => run.step(0)).toThrowError(/lnx: k must be/);
        expect(() => run.step(Number.NaN)).toThrowError(/lnx: k must be/);
        run.delete();
        expect(() => m.setThreads(-1)).toThrowError(/lnx: threads/);
      });
    });
  }
});
