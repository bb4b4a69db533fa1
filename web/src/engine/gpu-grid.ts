// gpu-grid.ts — the toy grid of Figure 4 on the WebGPU backend, with the interface of the CPU
// engine's GridRun (step / done / resultJson / delete), so the worker's job loop runs either.
//
// Why not one C++ GridRun: the CPU grid advances its runs on pool threads; on the GPU the runs'
// steps are recorded and submitted without waiting, and the JS loop awaits the readbacks
// (docs/webgpu.md). The engine expands and validates the grid config (gridPlanJson) and writes the
// Grid document (GridDocument: each run's Train document tails appended as they land), so the runs,
// their order, every default and the document are the engine's; this file only schedules the runs.
//
// Batches: runs of the same shape (the plan's `shape`: they differ only in learning rate, warm-up
// and seed) go to the device together as one GpuTrainBatch, whose every step is one set of
// dispatches for all its runs (wasm/gpu/device_batch.h), so a grid step's dispatch overhead is paid
// once per batch instead of once per run. At most `concurrent` runs live on the device at once
// (each holds its parameters, optimizer state and activations: ~70 MB at the toy's size); a batch
// the device's buffer limits cannot hold is split (the engine says how many runs fit). A finished
// batch's series stay in the GridDocument and its GPU buffers are freed.
//
// Hand-off: every live run reads its parameters and optimizer state back every
// checkpointEvery(steps) steps, and the latest checkpoint of each is kept here (one copy per run,
// in JS memory). After a lost device, handoff() gives the worker what the CPU engine needs to
// continue the grid (GridRun.continueRun): every run as the document holds it and the checkpoints.
import type { RunStatus } from './documents';

/** One run of the plan: its shape number and the TrainRun config the engine wrote for it (its other keys are not read here). */
export interface GridPlan {
  runs: { shape: number; train: Record<string, unknown> }[];
}

/** A run's packed parameters and optimizer state after `step` (public/wasm/lnx.d.ts TrainCheckpoint). */
export interface Checkpoint {
  step: number;
  values: Float32Array;
}
/** public/wasm/lnx-gpu.d.ts GpuTrainBatch: runs of one shape, stepped together. */
export interface GpuBatchLike {
  size(): number;
  step(k: number): number;
  status(run: number): RunStatus;
  resultJson(run: number, from: number): string;
  setCheckpointEvery(steps: number): void;
  takeCheckpoint(run: number): Checkpoint | null;
  delete(): void;
}
/** What a CPU GridRun needs to continue a grid the GPU left: each run of the Grid document (plan
 *  order, series from step 1) and the latest checkpoint of the runs that were live. */
export interface GridHandoff {
  runs: Record<string, unknown>[];
  checkpoints: Map<number, Checkpoint>;
}
/** The engine's GridDocument (public/wasm/lnx.d.ts). */
export interface GridDocumentLike {
  stepsHeld(run: number): number;
  append(run: number, trainJson: string): void;
  progress(): number;
  resultJson(from: number, backend: '' | 'webgpu'): string;
  delete(): void;
}
export interface GpuGridModule {
  gridPlanJson(configJson: string): string;
  GridDocument: new (configJson: string) => GridDocumentLike;
  GpuTrainBatch: new (configJsons: string[], readbackEvery: number) => GpuBatchLike;
}

/** Runs on the device at once (~70 MB each at the toy's size): the article's grid is two batches of 8. */
export const GPU_GRID_CONCURRENT = 8;
/** Losses are read back every this many steps (and at the end of every step() call). */
export const GPU_GRID_READBACK = 8;

/** Steps between a run's checkpoints: a tenth of the run, at least 8 steps, so a lost device costs at
 *  most a tenth of each live run's work, and the reads (the parameters and optimizer state, ~18 MB
 *  at the toy's size with Adam) are 10 per run. */
export const checkpointEvery = (steps: number): number => Math.max(8, Math.ceil(steps / 10));

/** How many runs a refused batch could hold ("lnx: gpu batch too large: at most N runs: …"), else null. */
export function batchFits(e: unknown): number | null {
  const m = /^lnx: gpu batch too large: at most (\d+) runs/.exec(e instanceof Error ? e.message : String(e));
  return m ? Number(m[1]) : null;
}

interface LiveBatch {
  batch: GpuBatchLike;
  runs: number[]; // plan indices, batch order
}

/** The grid over GpuTrainBatch objects; the caller awaits the module's settled() after each step(). */
export class GpuGrid {
  readonly plan: GridPlan;
  private readonly doc: GridDocumentLike;
  private live: LiveBatch[] = [];
  private readonly checkpoints = new Map<number, Checkpoint>();
  private next = 0;

  constructor(
    private readonly m: GpuGridModule,
    configJson: string,
    private readonly concurrent = GPU_GRID_CONCURRENT,
    private readonly readbackEvery = GPU_GRID_READBACK,
  ) {
    this.plan = JSON.parse(m.gridPlanJson(configJson)) as GridPlan; // throws "lnx: …" on a bad config
    this.doc = new m.GridDocument(configJson);
    try {
      this.fill();
    } catch (e) {
      this.delete(); // a lost device at the start: free what was created; the caller falls back to the CPU
      throw e;
    }
  }

  /** Records up to k more steps of every live run; returns the fraction done so far. */
  step(k: number): number {
    this.sync();
    for (const b of this.live) b.batch.step(k);
    return this.doc.progress();
  }

  done(): boolean {
    this.sync();
    return this.next >= this.plan.runs.length && this.live.length === 0;
  }

  progress(): number {
    return this.doc.progress();
  }

  resultJson(from: number): string {
    this.sync();
    return this.doc.resultJson(from, 'webgpu');
  }

  delete(): void {
    for (const b of this.live) {
      try {
        b.batch.delete();
      } catch {
        // a lost device can make delete() throw; the batch's memory is released either way
      }
    }
    this.live = [];
    this.checkpoints.clear();
    this.doc.delete();
  }

  /** After a failure (a lost device): the grid as far as it got, for the CPU engine to continue.
   *  Touches no GPU object: the document and the checkpoints are host memory. */
  handoff(): GridHandoff {
    const doc = JSON.parse(this.doc.resultJson(0, 'webgpu')) as { runs: Record<string, unknown>[] };
    return { runs: doc.runs, checkpoints: new Map(this.checkpoints) };
  }

  /** Appends what has landed to the document; frees the batches whose runs all stopped; starts queued runs. */
  private sync(): void {
    this.live = this.live.filter(({ batch, runs }) => {
      let running = false;
      runs.forEach((i, j) => {
        this.doc.append(i, batch.resultJson(j, this.doc.stepsHeld(i)));
        // after the append: the document then holds at least the checkpoint's steps
        const c = batch.takeCheckpoint(j);
        if (c) this.checkpoints.set(i, c);
        if (batch.status(j) === 'running') running = true;
      });
      if (running) return true;
      batch.delete();
      for (const i of runs) this.checkpoints.delete(i);
      return false;
    });
    this.fill();
  }

  private liveRuns(): number {
    return this.live.reduce((n, b) => n + b.runs.length, 0);
  }

  /** Starts the next runs of one shape as a batch, while fewer than `concurrent` runs are live. */
  private fill(): void {
    const runs = this.plan.runs;
    while (this.liveRuns() < this.concurrent && this.next < runs.length) {
      const room = this.concurrent - this.liveRuns();
      const want: number[] = [this.next];
      while (want.length < room && this.next + want.length < runs.length && runs[this.next + want.length].shape === runs[this.next].shape)
        want.push(this.next + want.length);
      let size = want.length;
      let batch: GpuBatchLike | null = null;
      while (!batch) {
        try {
          batch = new this.m.GpuTrainBatch(
            want.slice(0, size).map((i) => JSON.stringify(runs[i].train)),
            this.readbackEvery,
          );
        } catch (e) {
          const fits = batchFits(e);
          if (fits == null || fits >= size) throw e;
          size = fits;
        }
      }
      this.live.push({ batch, runs: want.slice(0, size) });
      this.next += size;
      batch.setCheckpointEvery(checkpointEvery(Number(runs[want[0]].train.steps)));
    }
  }
}

/** Hands a failed GPU grid's runs to a new CPU GridRun before its first step: finished runs are taken
 *  as they are, live ones continue from their checkpoint, the rest start at step 1. */
export function continueGrid(
  grid: { continueRun?(run: number, runJson: string, checkpoint: Checkpoint | null, backend: 'webgpu'): void },
  h: GridHandoff,
): void {
  if (!grid.continueRun) return;
  h.runs.forEach((run, i) => grid.continueRun!(i, JSON.stringify(run), h.checkpoints.get(i) ?? null, 'webgpu'));
}
