// gpu-grid.ts — the toy grid of Figure 4 on the WebGPU backend, with the interface of the CPU
// engine's GridRun (step / done / resultJson / delete), so the worker's job loop runs either.
//
// Why not one C++ GridRun: the CPU grid advances its runs on pool threads; on the GPU each run is a
// GpuTrainRun whose steps are recorded and submitted without waiting, and the JS loop awaits the
// readbacks (docs/webgpu.md). The engine expands and validates the grid config (gridPlanJson) and
// writes the Grid document (GridDocument: each run's Train document tails appended as they land),
// so the runs, their order, every default and the document are the engine's; this file only
// schedules the runs.
//
// At most `concurrent` runs live on the device at once (each holds its parameters, optimizer state
// and activations: ~70 MB at the toy's size); a finished run's series stay in the GridDocument and
// its GPU buffers are freed.
//
// Hand-off: every live run reads its parameters and optimizer state back every
// checkpointEvery(steps) steps, and the latest checkpoint of each is kept here (one copy per run,
// in JS memory). After a lost device, handoff() gives the worker what the CPU engine needs to
// continue the grid (GridRun.continueRun): every run as the document holds it and the checkpoints.
import type { RunStatus } from './documents';

/** One run of the plan: the TrainRun config the engine wrote for it (its other keys are not read here). */
export interface GridPlan {
  runs: { train: Record<string, unknown> }[];
}

/** A run's packed parameters and optimizer state after `step` (public/wasm/lnx.d.ts TrainCheckpoint). */
export interface Checkpoint {
  step: number;
  values: Float32Array;
}
export interface GpuTrainLike {
  step(k: number): number;
  status(): RunStatus;
  resultJson(from: number): string;
  setCheckpointEvery(steps: number): void;
  takeCheckpoint(): Checkpoint | null;
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
  GpuTrainRun: new (configJson: string, readbackEvery: number) => GpuTrainLike;
}

/** Runs on the device at once. */
export const GPU_GRID_CONCURRENT = 4;
/** Losses are read back every this many steps (and at the end of every step() call). */
export const GPU_GRID_READBACK = 8;

/** Steps between a run's checkpoints: a tenth of the run, at least 8 steps, so a lost device costs at
 *  most a tenth of each live run's work, and the reads (the parameters and optimizer state, ~18 MB
 *  at the toy's size with Adam) are 10 per run. */
export const checkpointEvery = (steps: number): number => Math.max(8, Math.ceil(steps / 10));

/** The grid over GpuTrainRun objects; the caller awaits the module's settled() after each step(). */
export class GpuGrid {
  readonly plan: GridPlan;
  private readonly doc: GridDocumentLike;
  private readonly live = new Map<number, GpuTrainLike>();
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
    for (const run of this.live.values()) run.step(k);
    return this.doc.progress();
  }

  done(): boolean {
    this.sync();
    return this.next >= this.plan.runs.length && this.live.size === 0;
  }

  progress(): number {
    return this.doc.progress();
  }

  resultJson(from: number): string {
    this.sync();
    return this.doc.resultJson(from, 'webgpu');
  }

  delete(): void {
    for (const run of this.live.values()) {
      try {
        run.delete();
      } catch {
        // a lost device can make delete() throw; the run's memory is released either way
      }
    }
    this.live.clear();
    this.checkpoints.clear();
    this.doc.delete();
  }

  /** After a failure (a lost device): the grid as far as it got, for the CPU engine to continue.
   *  Touches no GPU object: the document and the checkpoints are host memory. */
  handoff(): GridHandoff {
    const doc = JSON.parse(this.doc.resultJson(0, 'webgpu')) as { runs: Record<string, unknown>[] };
    return { runs: doc.runs, checkpoints: new Map(this.checkpoints) };
  }

  /** Appends what has landed to the document; frees the runs that stopped; starts queued runs. */
  private sync(): void {
    for (const [i, run] of this.live) {
      this.doc.append(i, run.resultJson(this.doc.stepsHeld(i)));
      // after the append: the document then holds at least the checkpoint's steps
      const c = run.takeCheckpoint();
      if (c) this.checkpoints.set(i, c);
      if (run.status() === 'running') continue;
      run.delete();
      this.live.delete(i);
      this.checkpoints.delete(i);
    }
    this.fill();
  }

  private fill(): void {
    while (this.live.size < this.concurrent && this.next < this.plan.runs.length) {
      const i = this.next++;
      const train = this.plan.runs[i].train;
      const run = new this.m.GpuTrainRun(JSON.stringify(train), this.readbackEvery);
      this.live.set(i, run);
      run.setCheckpointEvery(checkpointEvery(Number(train.steps)));
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
