// The worker's job loop (web/src/engine/runner.ts) driven with a stand-in module: progress,
// streaming, cancel between chunks, engine errors, and delete() on every path.
import { describe, expect, it } from 'vitest';
import { errorMessage, eta, nextChunk, runJob, type JobEngine } from '../../web/src/engine/runner';
import type { Reply } from '../../web/src/engine/protocol';
import type { LnxModule } from '../../web/src/engine/lnx-module';
import { mergeGrid, nextFrom, type GridResult } from '../../web/src/engine/documents';
import { grid, probe } from './fixtures';

interface Log {
  deleted: number;
  steps: number[];
  froms: number[];
}

/** A module whose ProbeRun needs `total` batches and whose GridRun runs `steps` steps in lockstep. */
function fakeModule(log: Log, opts: { total?: number; steps?: number; throwAt?: number; badConfig?: boolean } = {}): LnxModule {
  const total = opts.total ?? 10;
  const G = grid();
  const S = opts.steps ?? 200;
  /** What both stand-ins share: `n` of `need` units done (each step's size logged), delete() counted. */
  class FakeRun {
    n = 0;
    constructor(readonly need: number) {}
    step(k: number) {
      log.steps.push(k);
      this.n = Math.min(this.need, this.n + k);
      return this.n / this.need;
    }
    done() {
      return this.n >= this.need;
    }
    progress() {
      return this.n / this.need;
    }
    delete() {
      log.deleted++;
    }
  }
  class ProbeRun extends FakeRun {
    constructor(json: string) {
      super(total);
      if (opts.badConfig) throw new Error('lnx: seeds must be in [1, 10]');
      JSON.parse(json);
    }
    step(k: number) {
      if (opts.throwAt != null && this.n >= opts.throwAt) throw new Error('lnx: boom');
      return super.step(k);
    }
    resultJson() {
      return JSON.stringify(probe());
    }
    handoffJson() {
      return JSON.stringify({ jobs: this.n, seeds: {} });
    }
    continueFrom(json: string) {
      this.n = JSON.parse(json).jobs;
    }
  }
  class GridRun extends FakeRun {
    constructor() {
      super(S);
    }
    resultJson(from: number) {
      log.froms.push(from);
      const runs = G.runs.map((r) => ({
        ...r,
        status: this.n >= S ? r.status : ('running' as const),
        from,
        loss: r.loss.slice(from, this.n),
        grad_norm: r.grad_norm.slice(from, this.n),
        lr_schedule: r.lr_schedule.slice(from, this.n),
      }));
      return JSON.stringify({ ...G, progress: this.n / S, from, runs });
    }
  }
  return {
    engineVersion: () => '0.1.0',
    buildFlavour: () => 'wasm-st',
    setThreads: () => {},
    threads: () => 1,
    ProbeRun,
    GridRun,
    TrainRun: class {},
  } as unknown as LnxModule;
}

function hooks(opts: { cancelAfter?: number; dt?: number } = {}) {
  const replies: Reply[] = [];
  let t = 0;
  let calls = 0;
  return {
    replies,
    h: {
      post: (r: Reply) => replies.push(r),
      cancelled: () => opts.cancelAfter != null && replies.filter((r) => r.type === 'progress').length >= opts.cancelAfter,
      whilePaused: async () => {},
      yieldToEvents: async () => {},
      now: () => (calls++ % 2 === 0 ? t : (t += opts.dt ?? 10)),
    },
  };
}

const log0 = (): Log => ({ deleted: 0, steps: [], froms: [] });

describe('runJob: experiment', () => {
  /** An experiment of `total` units; with `batches`, a GPU one (GpuPhaseDiagram.batchesJson). */
  const engine = (log: Log, batches: boolean): JobEngine => ({
    ...(fakeModule(log) as unknown as JobEngine),
    ExperimentRun: class {
      n = 0;
      step(k: number) {
        this.n = Math.min(4, this.n + k);
        return this.n / 4;
      }
      done() {
        return this.n >= 4;
      }
      resultJson() {
        return JSON.stringify({ experiment: 'phase-diagram', cells: [] });
      }
      delete() {
        log.deleted++;
      }
      batchesJson = batches ? () => JSON.stringify([{ runs: 2, dispatches: 100 + this.n }]) : undefined;
    },
  });
  it.each([true, false])('progress carries the batches of a GPU experiment (%s), and only then', async (gpu) => {
    const log = log0();
    const { replies, h } = hooks();
    await runJob(engine(log, gpu), { type: 'experiment', id: 3, name: 'phase-diagram', config: {} }, h);
    const prog = replies.filter((r) => r.type === 'progress');
    expect(prog.length).toBeGreaterThan(0);
    for (const r of prog) {
      if (r.type !== 'progress') continue;
      if (gpu) expect(r.batches).toEqual([{ runs: 2, dispatches: expect.any(Number) }]);
      else expect('batches' in r).toBe(false);
    }
    expect(replies.at(-1)?.type).toBe('done');
    expect(log.deleted).toBe(1);
  });
});

describe('runJob: probe', () => {
  it('reports increasing progress, then done with the parsed result, and deletes the run', async () => {
    const log = log0();
    const { replies, h } = hooks();
    await runJob(fakeModule(log), { type: 'probe', id: 7, config: { seeds: [0] } }, h);
    const prog = replies.filter((r) => r.type === 'progress');
    expect(prog.length).toBeGreaterThan(1);
    const fr = prog.map((r) => (r.type === 'progress' ? r.fraction : 0));
    expect([...fr].sort((a, b) => a - b)).toEqual(fr);
    const last = replies.at(-1)!;
    expect(last.type).toBe('done');
    if (last.type === 'done') expect(last.result).toEqual(probe());
    expect(replies.every((r) => !('id' in r) || r.id === 7)).toBe(true);
    expect(log.deleted).toBe(1);
  });
  it('chunks grow while they are fast', async () => {
    const log = log0();
    await runJob(fakeModule(log, { total: 100 }), { type: 'probe', id: 1, config: {} }, hooks({ dt: 1 }).h);
    expect(log.steps[0]).toBe(1);
    expect(Math.max(...log.steps)).toBeGreaterThan(4);
  });
  it('cancel between chunks → cancelled, no done, deleted', async () => {
    const log = log0();
    const { replies, h } = hooks({ cancelAfter: 2 });
    await runJob(fakeModule(log, { total: 1000 }), { type: 'probe', id: 3, config: {} }, h);
    expect(replies.at(-1)).toEqual({ type: 'cancelled', id: 3 });
    expect(replies.some((r) => r.type === 'done')).toBe(false);
    expect(log.deleted).toBe(1);
  });
  it('an invalid config → error with the engine message; nothing to delete', async () => {
    const log = log0();
    const { replies, h } = hooks();
    await runJob(fakeModule(log, { badConfig: true }), { type: 'probe', id: 4, config: { seeds: [99] } }, h);
    expect(replies).toEqual([{ type: 'error', id: 4, message: 'lnx: seeds must be in [1, 10]' }]);
    expect(log.deleted).toBe(0);
  });
  it('a throw mid-run → error, and the run is deleted', async () => {
    const log = log0();
    const { replies, h } = hooks();
    await runJob(fakeModule(log, { throwAt: 3 }), { type: 'probe', id: 5, config: {} }, h);
    expect(replies.at(-1)).toEqual({ type: 'error', id: 5, message: 'lnx: boom' });
    expect(log.deleted).toBe(1);
  });
});

describe('runJob: the WebGPU engine hooks', () => {
  it('awaits settled() after every chunk, before timing it and reading progress', async () => {
    const log = log0();
    const m = fakeModule(log, { total: 20 }) as unknown as JobEngine;
    let settles = 0;
    const { replies, h } = hooks();
    await runJob({ ...m, ProbeRun: m.ProbeRun, GridRun: m.GridRun, settled: async () => void settles++ }, { type: 'probe', id: 2, config: {} }, h);
    expect(settles).toBe(log.steps.length);
    expect(replies.at(-1)?.type).toBe('done');
  });
  it('an error claimed by rethrow (a GPU failure) is thrown to the caller, not posted; the run is deleted', async () => {
    const log = log0();
    const { replies, h } = hooks();
    const gpuError = (e: unknown) => e instanceof Error && e.message === 'lnx: boom';
    await expect(runJob(fakeModule(log, { throwAt: 3 }), { type: 'probe', id: 6, config: {} }, h, gpuError)).rejects.toThrow('lnx: boom');
    expect(replies.some((r) => r.type === 'error' || r.type === 'done')).toBe(false);
    expect(log.deleted).toBe(1);
  });
  it('a probe claimed by rethrow hands over what it had measured; a new probe takes it before its first step', async () => {
    const log = log0();
    const gpuError = (e: unknown) => e instanceof Error && e.message === 'lnx: boom';
    let handed: string | null = null;
    const first = hooks();
    await expect(
      runJob(fakeModule(log, { throwAt: 3 }), { type: 'probe', id: 9, config: {} }, { ...first.h, probeHandoff: (j) => (handed = j) }, gpuError),
    ).rejects.toThrow();
    expect(JSON.parse(handed!).jobs).toBeGreaterThanOrEqual(3);
    const second = hooks();
    const before = log.steps.length;
    await runJob(fakeModule(log), { type: 'probe', id: 9, config: {} }, { ...second.h, prepareProbe: (p) => p.continueFrom!(handed!, 'webgpu') });
    expect(second.replies.at(-1)?.type).toBe('done');
    // it went on from the hand-off: fewer batches than the whole probe's 10
    expect(log.steps.slice(before).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10 - JSON.parse(handed!).jobs);
  });
  it('errors not claimed by rethrow are posted as before', async () => {
    const log = log0();
    const { replies, h } = hooks();
    await runJob(fakeModule(log, { throwAt: 3 }), { type: 'probe', id: 8, config: {} }, h, () => false);
    expect(replies.at(-1)).toEqual({ type: 'error', id: 8, message: 'lnx: boom' });
  });
});

describe('runJob: grid streaming', () => {
  it('streams deltas that merge into the complete grid', async () => {
    const log = log0();
    const { replies, h } = hooks();
    await runJob(fakeModule(log), { type: 'grid', id: 9, config: {} }, h);
    let acc: GridResult | null = null;
    const lengths: number[] = [];
    for (const r of replies) {
      if (r.type === 'progress' && r.partial) {
        acc = mergeGrid(acc, r.partial);
        lengths.push(acc.runs[0].loss.length);
      }
      if (r.type === 'done') acc = mergeGrid(acc, r.result as GridResult);
    }
    expect(lengths.length).toBeGreaterThan(2);
    expect([...lengths].sort((a, b) => a - b)).toEqual(lengths);
    expect(acc!.runs.map((r) => r.loss)).toEqual(grid().runs.map((r) => r.loss));
    expect(acc!.runs.every((r) => r.status === 'ok')).toBe(true);
    // later requests ask only for the tail
    expect(Math.max(...log.froms)).toBeGreaterThan(0);
    expect(log.deleted).toBe(1);
  });
});

describe('helpers', () => {
  it.each([
    [1, 10, 2],
    [4, 240, 2],
    [8, 120, 8],
    [1, 0, 2],
    [200, 1, 256],
  ])('nextChunk(%i, %i ms) = %i', (k, ms, want) => expect(nextChunk(k, ms)).toBe(want));
  it.each([
    [0, 1000, null],
    [0.25, 1000, 3000],
    [1, 1000, 0],
  ])('eta(%s, %i) = %s', (f, ms, want) => expect(eta(f, ms)).toBe(want));
  it.each([
    [new Error('lnx: bad'), 'lnx: bad'],
    ['text', 'text'],
    [12345, 'lnx: engine exception (code 12345)'],
  ])('errorMessage(%s)', (e, want) => expect(errorMessage(e)).toBe(want));
});

describe('mergeGrid / nextFrom', () => {
  const g = grid();
  const cut = (doc: GridResult, from: number, to: number, status: 'running' | 'ok' = 'running'): GridResult => ({
    ...doc,
    from,
    runs: doc.runs.map((r) => ({
      ...r,
      status,
      from,
      loss: r.loss.slice(from, to),
      grad_norm: r.grad_norm.slice(from, to),
      lr_schedule: r.lr_schedule.slice(from, to),
    })),
  });
  it('appends at each run’s from; re-sent overlap is harmless', () => {
    let acc = mergeGrid(null, cut(g, 0, 10));
    expect(nextFrom(acc)).toBe(10);
    acc = mergeGrid(acc, cut(g, 5, 30)); // overlaps 5..10
    expect(acc.runs[0].loss).toEqual(g.runs[0].loss.slice(0, 30));
    acc = mergeGrid(acc, cut(g, 30, 200, 'ok'));
    expect(acc.runs.map((r) => r.loss)).toEqual(g.runs.map((r) => r.loss));
    expect(acc.runs.every((r) => r.from === 0)).toBe(true);
  });
  it('does not mutate its inputs', () => {
    const a = cut(g, 0, 10);
    const snapshot = JSON.stringify(a);
    mergeGrid(a, cut(g, 10, 20));
    expect(JSON.stringify(a)).toBe(snapshot);
  });
  it('nextFrom: the shortest still-running run', () => {
    const a = mergeGrid(null, cut(g, 0, 10));
    a.runs[0] = { ...a.runs[0], status: 'nan', loss: a.runs[0].loss.slice(0, 3) };
    expect(nextFrom(a)).toBe(10);
    expect(nextFrom(null)).toBe(0);
  });
});
