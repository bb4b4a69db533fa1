// gpu-grid.test.ts — the WebGPU grid's scheduling and document assembly (web/src/engine/gpu-grid.ts)
// over a stand-in module whose runs land their losses only after `settled()`, as the GPU does.
import { describe, expect, it } from 'vitest';
import { assembleGrid, GpuGrid, gridProgress, sliceTrainDoc, type GpuGridModule, type GridPlan, type TrainDoc } from '../../web/src/engine/gpu-grid';
import { mergeGrid, nextFrom, type GridResult } from '../../web/src/engine/results';

const STEPS = 10;

function plan(n: number): GridPlan {
  const runs = Array.from({ length: n }, (_, i) => ({
    norm: (i % 2 ? 'pre' : 'post') as 'pre' | 'post', warmup: 0, lr: 1e-3, seed: i,
    train: { norm: i % 2 ? 'pre' : 'post', warmup: 0, lr: 1e-3, seed: i, steps: STEPS },
  }));
  return { config: { norms: ['post', 'pre'], warmups: [0], lrs: [1e-3], seeds: runs.map((r) => r.seed), steps: STEPS }, runs };
}

/** Runs record steps at step(k) and land them at settle(); `stopAt` makes seed 3 go NaN there. */
function fakeModule(n: number, opts: { stopAt?: number; badConfig?: boolean } = {}) {
  const live = new Set<object>();
  let created = 0, maxLive = 0;
  class Run {
    recorded = 0; landed = 0; seed: number; stopped = false;
    constructor(json: string, public readbackEvery: number) {
      this.seed = JSON.parse(json).seed;
      live.add(this); created++; maxLive = Math.max(maxLive, live.size);
    }
    step(k: number) { this.recorded = Math.min(STEPS, this.recorded + k); return this.landed; }
    status() { return this.stopped ? 'nan' : this.landed >= STEPS ? 'ok' : 'running'; }
    resultJson(from: number): string {
      const loss = Array.from({ length: this.landed }, (_, t) => 5 - t / 10 + this.seed);
      const f = Math.min(from, loss.length);
      const doc: TrainDoc = {
        engine: { version: '0.1.0', build: 'wasm-st', threads: 1, backend: 'webgpu' }, config: { steps: STEPS },
        plateau_entropy: 5.36, optimal_loss: Math.log(4), uniform_loss: Math.log(256),
        status: this.status() as TrainDoc['status'], stop_step: this.stopped ? this.landed + 1 : null, steps_done: this.landed, from: f,
        loss: loss.slice(f), grad_norm: loss.slice(f).map(() => 1), lr: loss.slice(f).map(() => 1e-3),
      };
      return JSON.stringify(doc);
    }
    delete() { live.delete(this); }
  }
  const m: GpuGridModule = {
    gridPlanJson: (json: string) => {
      if (opts.badConfig) throw new Error('lnx: lrs entries must be finite numbers in (0, 10]');
      return JSON.stringify(plan(n));
    },
    GpuTrainRun: Run as unknown as GpuGridModule['GpuTrainRun'],
    engineVersion: () => '0.1.0',
  };
  const settle = () => {
    for (const r of live as Set<Run>) {
      if (opts.stopAt != null && r.seed === 3 && r.recorded >= opts.stopAt) { r.landed = opts.stopAt - 1; r.stopped = true; }
      else r.landed = r.recorded;
    }
  };
  return { m, settle, live, stats: () => ({ created, maxLive }) };
}

describe('GpuGrid', () => {
  it('runs every run to the end with at most `concurrent` on the device, and frees them all', () => {
    const { m, settle, live, stats } = fakeModule(6);
    const g = new GpuGrid(m, '{}', 2, 4);
    let chunks = 0;
    while (!g.done()) { g.step(4); settle(); chunks++; }
    expect(stats()).toEqual({ created: 6, maxLive: 2 });
    expect(live.size).toBe(0);
    expect(chunks).toBe(9); // 3 waves of 2 runs × 3 chunks (4 + 4 + 2 steps)
    const doc = JSON.parse(g.resultJson(0)) as GridResult;
    expect(doc.engine.backend).toBe('webgpu');
    expect(doc.runs.map((r) => r.seed)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(doc.runs.every((r) => r.status === 'ok' && r.loss.length === STEPS && r.lr_schedule.length === STEPS)).toBe(true);
    expect(doc.progress).toBe(1);
    g.delete();
  });

  it('streams: merged partial documents equal the final one', () => {
    const { m, settle } = fakeModule(4);
    const g = new GpuGrid(m, '{}', 3, 4);
    let acc: GridResult | null = null;
    while (!g.done()) {
      g.step(3);
      settle();
      acc = mergeGrid(acc, JSON.parse(g.resultJson(nextFrom(acc))) as GridResult);
    }
    acc = mergeGrid(acc, JSON.parse(g.resultJson(nextFrom(acc))) as GridResult);
    const whole = JSON.parse(g.resultJson(0)) as GridResult;
    expect(acc.runs.map((r) => r.loss)).toEqual(whole.runs.map((r) => r.loss));
  });

  it('a run that goes NaN stops, counts as complete, and keeps its status and stop step', () => {
    const { m, settle } = fakeModule(4, { stopAt: 5 });
    const g = new GpuGrid(m, '{}', 4, 4);
    while (!g.done()) { g.step(2); settle(); }
    const doc = JSON.parse(g.resultJson(0)) as GridResult;
    const r3 = doc.runs.find((r) => r.seed === 3)!;
    expect(r3.status).toBe('nan');
    expect(r3.stop_step).toBe(5);
    expect(r3.loss.length).toBe(4);
    expect(doc.progress).toBe(1);
  });

  it('an invalid config throws the engine error before anything is created', () => {
    const { m, stats } = fakeModule(4, { badConfig: true });
    expect(() => new GpuGrid(m, '{"lrs":[-1]}')).toThrow(/^lnx: lrs entries/);
    expect(stats().created).toBe(0);
  });

  it('a device lost while creating runs frees the ones created and rethrows', () => {
    const { m, live } = fakeModule(4);
    let made = 0;
    const Orig = m.GpuTrainRun;
    m.GpuTrainRun = class {
      constructor(json: string, k: number) {
        if (++made === 3) throw new Error('lnx: gpu: WebGPU device lost (destroyed)');
        return new Orig(json, k);
      }
    } as unknown as GpuGridModule['GpuTrainRun'];
    expect(() => new GpuGrid(m, '{}', 4)).toThrow(/^lnx: gpu:/);
    expect(live.size).toBe(0);
  });
});

describe('assembleGrid and helpers', () => {
  const p = plan(2);
  const engine = { version: '0.1.0', build: 'wasm-st' as const, threads: 1, backend: 'webgpu' as const };
  it('a run not started yet is an empty running run; reference losses come from any started run', () => {
    const d: TrainDoc = {
      engine, config: { steps: STEPS }, plateau_entropy: 5.36, optimal_loss: 1.386, uniform_loss: 5.545,
      status: 'running', stop_step: null, steps_done: 2, from: 0, loss: [5, 4.9], grad_norm: [1, 1], lr: [1e-3, 1e-3],
    };
    const g = assembleGrid(p, [null, d], engine);
    expect(g.runs[0]).toMatchObject({ status: 'running', loss: [], steps_done: 0, stop_step: null });
    expect(g.runs[1]).toMatchObject({ norm: 'pre', seed: 1, loss: [5, 4.9], lr_schedule: [1e-3, 1e-3] });
    expect(g.plateau_entropy).toBe(5.36);
    expect(g.progress).toBeCloseTo(2 / (2 * STEPS));
    expect(gridProgress(p, [null, null])).toBe(0);
    expect(sliceTrainDoc(d, 1)).toMatchObject({ from: 1, loss: [4.9] });
    expect(sliceTrainDoc(d, 9)).toMatchObject({ from: 2, loss: [] });
  });
  it('without any run yet the reference losses are NaN unless a fallback is given', () => {
    expect(Number.isNaN(assembleGrid(p, [null, null], engine).plateau_entropy)).toBe(true);
    expect(assembleGrid(p, [null, null], engine, { plateau_entropy: 5, optimal_loss: 1, uniform_loss: 6 }).plateau_entropy).toBe(5);
  });
});
