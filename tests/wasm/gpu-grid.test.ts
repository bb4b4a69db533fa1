// gpu-grid.test.ts — the WebGPU grid's scheduling (web/src/engine/gpu-grid.ts) over the real engine
// (gridPlanJson, GridDocument) with stand-in GPU batches: each wraps CPU TrainRuns of the same
// configs but lets their steps land only at settle(), as a GpuTrainBatch's readbacks do. The document it
// assembles must be the CPU GridRun's, bit for bit. And the hand-off after a lost device: the runs'
// checkpoints (the CPU TrainRun's own), handoff() and continueGrid into a CPU GridRun give the
// document of the grid that was never interrupted, bit for bit (the CPU on both sides).
import { beforeAll, describe, expect, it } from 'vitest';
import type { LnxModule, TrainRun } from '../../public/wasm/lnx';
import { checkpointEvery, continueGrid, GpuGrid, type GpuGridModule } from '../../web/src/engine/gpu-grid';
import { mergeGrid, nextFrom, type GridResult } from '../../web/src/engine/documents';
import { loadEngine } from './load';

const CONFIG = { layers: 2, d: 16, d_ff: 32, vocab: 32, seq: 8, batch: 2, steps: 10, warmups: [0, 4], lrs: [1e-3], seeds: [0, 1, 2] };

let m: LnxModule;
beforeAll(async () => {
  m = await loadEngine('st');
});

/** GPU-like batches over CPU TrainRuns: step() records for every run, settle() lands what was recorded.
 *  maxBatch: a larger batch is refused as the engine refuses one the device's buffers cannot hold. */
function gpuModule(opts: { failAt?: number; failStepAt?: number; maxBatch?: number } = {}) {
  const live = new Set<TrainRun>();
  const periods: number[] = [];
  const batches: number[] = [];
  let created = 0,
    maxLive = 0,
    stepCalls = 0,
    batchCount = 0;
  class FakeBatch {
    cpu: TrainRun[] = [];
    recorded = 0;
    landed: number[];
    steps: number;
    constructor(jsons: string[]) {
      const trains = jsons.map((j) => JSON.parse(j) as { steps: number; placement: string });
      if (new Set(trains.map((t) => t.placement)).size > 1) throw new Error('lnx: runs of two shapes in one batch');
      if (opts.maxBatch != null && jsons.length > opts.maxBatch)
        throw new Error(`lnx: gpu batch too large: at most ${opts.maxBatch} runs: a batch of ${jsons.length} runs needs …`);
      if (opts.failAt != null && ++batchCount === opts.failAt) throw new Error('lnx: gpu: WebGPU device lost (destroyed)');
      this.steps = trains[0].steps;
      this.cpu = jsons.map((j) => new m.TrainRun(j));
      for (const r of this.cpu) live.add(r);
      this.landed = this.cpu.map(() => 0);
      created += jsons.length;
      batches.push(jsons.length);
      maxLive = Math.max(maxLive, live.size);
    }
    size() {
      return this.cpu.length;
    }
    step(k: number) {
      if (opts.failStepAt != null && ++stepCalls >= opts.failStepAt) throw new Error('lnx: gpu: WebGPU device lost (destroyed)');
      this.recorded = Math.min(this.steps, this.recorded + k);
      return k;
    }
    settle() {
      this.cpu.forEach((r, i) => {
        if (this.recorded > this.landed[i]) this.landed[i] = r.step(this.recorded - this.landed[i]);
      });
    }
    status(i: number) {
      return this.cpu[i].status();
    }
    resultJson(i: number, from: number) {
      return this.cpu[i].resultJson(from);
    }
    setCheckpointEvery(n: number) {
      periods.push(n);
      for (const r of this.cpu) r.setCheckpointEvery(n);
    }
    takeCheckpoint(i: number) {
      return this.cpu[i].takeCheckpoint();
    }
    delete() {
      for (const r of this.cpu) {
        r.delete();
        live.delete(r);
      }
      all.delete(this);
    }
  }
  const all = new Set<FakeBatch>();
  const Made = new Proxy(FakeBatch, {
    construct: (T, args: [string[]]) => {
      const b = new T(...args);
      all.add(b);
      return b;
    },
  });
  const g: GpuGridModule = {
    gridPlanJson: (c) => m.gridPlanJson(c),
    GridDocument: m.GridDocument,
    GpuTrainBatch: Made as unknown as GpuGridModule['GpuTrainBatch'],
  };
  const settle = () => {
    for (const b of all) b.settle();
  };
  return { g, settle, live, periods, batches, stats: () => ({ created, maxLive, batches: batches.length }) };
}

const cpuGrid = (config: object) => {
  const grid = new m.GridRun(JSON.stringify(config));
  while (!grid.done()) grid.step(5);
  const doc = JSON.parse(grid.resultJson(0)) as GridResult;
  grid.delete();
  return doc;
};
const withoutEngine = ({ engine: _e, ...rest }: GridResult) => rest;

describe("GpuGrid (scheduling over the engine's GridDocument)", () => {
  it("runs every run with at most `concurrent` alive, frees them all, and writes the CPU grid's document", () => {
    const { g, settle, live, stats } = gpuModule();
    const grid = new GpuGrid(g, JSON.stringify(CONFIG), 2, 4);
    while (!grid.done()) {
      grid.step(4);
      settle();
    }
    expect(stats()).toEqual({ created: 12, maxLive: 2, batches: 6 }); // post, pre × 2 warm-ups × 3 seeds, 2 at a time
    expect(live.size).toBe(0);
    const doc = JSON.parse(grid.resultJson(0)) as GridResult;
    expect(doc.engine.backend).toBe('webgpu');
    expect(withoutEngine(doc)).toEqual(withoutEngine(cpuGrid(CONFIG)));
    grid.delete();
  });

  it('batches the runs of one shape together, splits a batch the device cannot hold, same document', () => {
    for (const [maxBatch, sizes] of [
      [undefined, [6, 2, 4]],
      [2, [2, 2, 2, 2, 2, 2]],
    ] as const) {
      const { g, settle, batches } = gpuModule({ maxBatch });
      const grid = new GpuGrid(g, JSON.stringify(CONFIG), 8, 4);
      while (!grid.done()) {
        grid.step(4);
        settle();
      }
      expect(batches).toEqual(sizes); // post × 6 (8 fit: the 6 of that shape), then pre × 2 beside it, then pre × 4
      expect(withoutEngine(JSON.parse(grid.resultJson(0)) as GridResult)).toEqual(withoutEngine(cpuGrid(CONFIG)));
      grid.delete();
    }
  });

  it('streams: merged partial documents equal the final one', () => {
    const { g, settle } = gpuModule();
    const grid = new GpuGrid(g, JSON.stringify(CONFIG), 3, 4);
    let acc: GridResult | null = null;
    while (!grid.done()) {
      grid.step(3);
      settle();
      acc = mergeGrid(acc, JSON.parse(grid.resultJson(nextFrom(acc))) as GridResult);
    }
    acc = mergeGrid(acc, JSON.parse(grid.resultJson(nextFrom(acc))) as GridResult);
    const whole = JSON.parse(grid.resultJson(0)) as GridResult;
    expect(acc.runs.map((r) => r.loss)).toEqual(whole.runs.map((r) => r.loss));
    grid.delete();
  });

  it('a run that stops keeps its status and stop step, and counts as complete', () => {
    const { g, settle } = gpuModule();
    const grid = new GpuGrid(g, JSON.stringify({ ...CONFIG, lrs: [10] }), 6, 4);
    while (!grid.done()) {
      grid.step(2);
      settle();
    }
    const doc = JSON.parse(grid.resultJson(0)) as GridResult;
    expect(doc.progress).toBe(1);
    expect(doc.runs.some((r) => r.status === 'diverged' || r.status === 'nan')).toBe(true);
    for (const r of doc.runs) if (r.status !== 'ok') expect(r.loss.length).toBe((r.stop_step ?? 0) - 1);
    grid.delete();
  });

  it('an invalid config throws the engine error before anything is created', () => {
    const { g, stats } = gpuModule();
    expect(() => new GpuGrid(g, '{"lrs":[-1]}')).toThrow(/^lnx: lrs entry/);
    expect(stats().created).toBe(0);
  });

  it('a device lost mid-grid: the CPU grid continued from the hand-off is the uninterrupted grid, bit for bit', () => {
    const config = { ...CONFIG, steps: 40 }; // checkpoints every 8 steps
    const { g, settle, periods } = gpuModule({ failStepAt: 5 });
    const grid = new GpuGrid(g, JSON.stringify(config), 4, 4);
    let err: unknown = null;
    try {
      for (;;) {
        grid.step(6);
        settle();
      } // one batch of 4 runs, 4 calls (24 steps each), then the 5th call fails
    } catch (e) {
      err = e;
    }
    expect(String(err)).toMatch(/device lost/);
    expect(periods).toEqual([8]);
    const h = grid.handoff();
    grid.delete();
    expect([...h.checkpoints.entries()].map(([i, c]) => [i, c.step])).toEqual([
      [0, 24],
      [1, 24],
      [2, 24],
      [3, 24],
    ]);
    const cpu = new m.GridRun(JSON.stringify(config));
    continueGrid(cpu, h);
    while (!cpu.done()) cpu.step(7);
    const doc = JSON.parse(cpu.resultJson(0)) as GridResult;
    cpu.delete();
    expect(doc.runs.map((r) => r.handoff?.steps ?? 0)).toEqual([24, 24, 24, 24, 0, 0, 0, 0, 0, 0, 0, 0]);
    const strip = (d: GridResult) => ({ ...withoutEngine(d), runs: d.runs.map(({ handoff: _h, ...r }) => r) });
    expect(strip(doc)).toEqual(strip(cpuGrid(config)));
  });

  it("a finished run's checkpoint is dropped; a grid engine without continueRun is left alone", () => {
    const { g, settle } = gpuModule();
    const grid = new GpuGrid(g, JSON.stringify({ ...CONFIG, steps: 16 }), 2, 4);
    grid.step(16);
    settle();
    grid.step(8); // syncs: runs 0 and 1 are done and freed, runs 2 and 3 start and record 8 steps
    settle();
    grid.done(); // syncs again: their checkpoints at step 8 are taken, after their steps are in the document
    expect([...grid.handoff().checkpoints.entries()].map(([i, c]) => [i, c.step])).toEqual([
      [2, 8],
      [3, 8],
    ]);
    expect(() => continueGrid({}, grid.handoff())).not.toThrow();
    grid.delete();
  });

  it.each([
    [1, 8],
    [40, 8],
    [80, 8],
    [81, 9],
    [500, 50],
    [5000, 500],
  ])('checkpointEvery(%i) = %i', (steps, every) => expect(checkpointEvery(steps)).toBe(every));

  it('a device lost while creating runs frees the ones created and rethrows', () => {
    const { g, live } = gpuModule({ failAt: 2 }); // post's batch is made, pre's fails
    expect(() => new GpuGrid(g, JSON.stringify({ ...CONFIG, warmups: [0], seeds: [0] }), 4)).toThrow(/^lnx: gpu:/);
    expect(live.size).toBe(0);
  });
});
