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
import { expectClose, loadEngine, numbers, runToEnd, type Flavour } from './load';
import { engineProblems } from '../../web/src/lib/engine-rules';
import { GRID_DEFAULTS } from '../../web/src/generated/engine-schema';
import { GRID, PROBE as PROBE_TABLE } from '../../web/src/lib/settings';
import { FULL, configOf, referenceOf } from '../../web/src/lib/fields';
import { SlotForm } from '../../web/src/lib/lab.svelte';

const GRID_RULE_ANSWERS = GRID.rules!;
const PROBE_RULE_ANSWERS = PROBE_TABLE.rules!;

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
        const result = runToEnd(new m.ProbeRun(JSON.stringify(PROBE)), 2);
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

      it("a grid on the article's text from Figure 4's form (data = text) is `lnx grid --data text`", async () => {
        const m = await loadEngine(flavour);
        if (flavour === 'mt') m.setThreads(2);
        // the page's call: the form's engine config (lib/settings.ts GRID), as the worker hands it to GridRun
        const form = new SlotForm(GRID);
        form.fill({
          base: FULL,
          values: {
            data: 'text',
            text_lang: 'zh',
            placements: ['post', 'pre'],
            warmups: [0, 5],
            lrs: [0.003],
            seeds: [0],
            steps: 12,
            layers: 1,
            d: 16,
            d_ff: 32,
            batch: 2,
            seq: 8,
          },
        });
        expect(form.errors).toEqual({});
        const cfg = form.config!;
        expect(cfg).toMatchObject({ data: 'text', text_lang: 'zh', vocab: 256 });
        const grid = new m.GridRun(JSON.stringify(cfg));
        while (!grid.done()) grid.step(5);
        const page = JSON.parse(grid.resultJson(0));
        grid.delete();
        const cli = native(['grid', ...flags(cfg)]);
        expect(page.config).toEqual(cli.config);
        expect(page.text).toEqual(cli.text); // the same bytes: each text's length and hash
        expect(page.plateau_entropy).toBe(cli.plateau_entropy);
        expect(page).not.toHaveProperty('optimal_loss');
        expect(page.runs.map((r: { val_step: number[] }) => r.val_step)).toEqual(cli.runs.map((r: { val_step: number[] }) => r.val_step));
        expectClose(numbers(page.runs), numbers(cli.runs), 2e-4);
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
        const grid = new m.GridRun(
          JSON.stringify({ chain_seed: 1234, seeds: [0, 2 ** 33], steps: 1, layers: 1, d: 16, d_ff: 16, vocab: 16, seq: 4, batch: 1 }),
        );
        grid.delete();
      });

      // The forms ask the engine (checkConfigJson) for their rules across fields, so what a form
      // refuses is what a run refuses, with the run's own message; each case is checked on both
      // sides of its limit.
      const checkOf = (m: Awaited<ReturnType<typeof loadEngine>>, kind: 'probe' | 'grid', c: unknown) => JSON.parse(m.checkConfigJson(kind, JSON.stringify(c)));
      const thrown = (f: () => unknown) => {
        try {
          f();
          return null;
        } catch (e) {
          return String((e as Error).message).replace(/^lnx: /, '');
        }
      };
      /** the check and the run agree on `c`: both take it, or both refuse it with the same message */
      const agree = (m: Awaited<ReturnType<typeof loadEngine>>, kind: 'probe' | 'grid', c: unknown, run: () => void) => {
        const check = checkOf(m, kind, c);
        const err = thrown(run);
        expect(check.ok, JSON.stringify(c)).toBe(err == null);
        if (err != null) expect(check.message).toBe(err);
        return check;
      };

      it("a model over 1 GiB: the form's check refuses it exactly where a run does (rule model_fits_in_memory, shown as err.memory)", async () => {
        const m = await loadEngine(flavour);
        const base = { ...GRID_DEFAULTS, steps: 1, layers: 16, d: 512, d_ff: 2048, seq: 128, placements: ['post'], warmups: [0], lrs: [0.001], seeds: [0] };
        let b = 1;
        while (b < 16 && checkOf(m, 'grid', { ...base, batch: b + 1 }).ok) b++;
        expect(b).toBeLessThan(16);
        for (const batch of [b, b + 1]) agree(m, 'grid', { ...base, batch }, () => m.gridPlanJson(JSON.stringify({ ...base, batch })));
        const refused = checkOf(m, 'grid', { ...base, batch: b + 1 });
        expect(refused.message).toMatch(/too large.*lower layers, d, d_ff, vocab, seq or batch/);
        expect(engineProblems(refused, GRID_RULE_ANSWERS).errors).toEqual([{ field: 'ctl.model', key: 'err.memory', message: refused.message }]);
      });

      it('a grid whose runs together do not fit (issue 27: 24 layers, d 512, d_ff 512, batch 8, seq 128, 60 runs ran out of memory after 8 s): refused by the check as by the run', async () => {
        const m = await loadEngine(flavour);
        const model = { layers: 24, d: 512, d_ff: 512, batch: 8, seq: 128, steps: 10, lrs: [0.001, 0.003] };
        const grid = (placements: string[], warmups: number[], seeds: number) => ({
          ...model,
          placements,
          warmups,
          seeds: Array.from({ length: seeds }, (_, i) => i),
        });
        // the form's config: its fields checked one by one (lib/lab.svelte.ts SlotForm), then asked of the engine
        const form = new SlotForm(GRID);
        const row = (f: string) => GRID.rows.find((r) => r.field === f)!;
        for (const p of ['peri', 'deepnorm', 'admin']) form.toggle(row('placements'), p, true);
        const typed = { lrs: '0.001, 0.003', warmups: '0, 100, 300', seeds: '2', steps: '10', layers: '24', d: '512', d_ff: '512', batch: '8', seq: '128' };
        for (const [k, v] of Object.entries(typed)) form.input(row(k), v);
        expect(form.errors).toEqual({});
        const big = { ...model, ...form.config };
        const check = agree(m, 'grid', big, () => m.gridPlanJson(JSON.stringify(big)));
        expect(check.message).toMatch(/grid too large: its 60 runs/);
        expect(engineProblems(check, GRID_RULE_ANSWERS).errors).toEqual([{ field: 'ctl.model', key: 'err.gridMemory', message: check.message }]);
        let s = 1;
        while (s < 4 && checkOf(m, 'grid', grid(['post'], [0], s + 1)).ok) s++;
        expect(s).toBeLessThan(4);
        for (const n of [s, s + 1]) agree(m, 'grid', grid(['post'], [0], n), () => m.gridPlanJson(JSON.stringify(grid(['post'], [0], n))));
      });

      it('too many runs, and a warm-up longer than the run: the check names the rule the form shows', async () => {
        const m = await loadEngine(flavour);
        const many = { placements: ['post', 'pre', 'peri', 'deepnorm', 'admin'], warmups: [0, 100, 300], lrs: [0.001, 0.003], seeds: [0, 1, 2] }; // 90 runs
        const check = agree(m, 'grid', many, () => m.gridPlanJson(JSON.stringify(many)));
        expect(engineProblems(check, GRID_RULE_ANSWERS).errors).toEqual([{ field: 'placements', key: 'err.runs', message: check.message }]);
        const long = checkOf(m, 'grid', { steps: 200, warmups: [0, 300] });
        expect(long.ok).toBe(true);
        expect(engineProblems(long, GRID_RULE_ANSWERS).warnings.map((w) => w.key)).toEqual(['warn.warmup']);
        expect(engineProblems(checkOf(m, 'grid', {}), GRID_RULE_ANSWERS)).toEqual({ errors: [], warnings: [] });
      });

      it('a probe too large for memory (issue 28: d 512, d_ff 2048, batch 2, seq 32, depths to 40): refused by the check as by the run', async () => {
        const m = await loadEngine(flavour);
        const model = { d: 512, d_ff: 2048, batch: 2, seq: 32 };
        const cfg = (depths: number[]) => configOf(PROBE_TABLE, referenceOf(PROBE_TABLE), { base: FULL, values: { seeds: [0], batches: 1, depths, ...model } });
        const form = new SlotForm(PROBE_TABLE);
        form.fill({ base: FULL, values: { seeds: [0], batches: 1, depths: [6, 40], ...model } });
        expect(form.errors).toEqual({});
        expect(form.config).toEqual(cfg([6, 40]));
        const check = agree(m, 'probe', cfg([6, 40]), () => new m.ProbeRun(JSON.stringify(cfg([6, 40]))).delete());
        expect(engineProblems(check, PROBE_RULE_ANSWERS).errors).toEqual([{ field: 'ctl.model', key: 'err.memory', message: check.message }]);
        let L = 6;
        while (L < 40 && checkOf(m, 'probe', cfg([6, L + 1])).ok) L++;
        expect(L).toBeLessThan(40);
        for (const d of [L, L + 1]) agree(m, 'probe', cfg([6, d]), () => new m.ProbeRun(JSON.stringify(cfg([6, d]))).delete());
      });

      it("expands a grid config (gridPlanJson) into the GridRun's runs, each a TrainRun config with the same curve", async () => {
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
