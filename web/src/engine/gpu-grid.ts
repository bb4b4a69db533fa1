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
// its GPU buffers are freed. Leaves out: the CPU fallback after a device loss (worker.ts restarts
// the job on the CPU).
import type { RunStatus } from './documents';

/** One run of the plan: the TrainRun config the engine wrote for it (its other keys are not read here). */
export interface GridPlan {
  runs: { train: Record<string, unknown> }[];
}

export interface GpuTrainLike {
  step(k: number): number;
  status(): RunStatus;
  resultJson(from: number): string;
  delete(): void;
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

/** The grid over GpuTrainRun objects; the caller awaits the module's settled() after each step(). */
export class GpuGrid {
  readonly plan: GridPlan;
  private readonly doc: GridDocumentLike;
  private readonly live = new Map<number, GpuTrainLike>();
  private next = 0;

  constructor(
    private readonly m: GpuGridModule,
    configJson: string,
    private readonly concurrent = GPU_GRID_CONCURRENT,
    private readonly readbackEvery = GPU_GRID_READBACK,
  ) {
    this.plan = JSON.parse(m.gridPlanJson(configJson)) as GridPlan; // throws "lnx: …" on a bad config
    this.doc = new m.GridDocument(configJson);
    this.fill();
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
    for (const run of this.live.values()) run.delete();
    this.live.clear();
    this.doc.delete();
  }

  /** Appends what has landed to the document; frees the runs that stopped; starts queued runs. */
  private sync(): void {
    for (const [i, run] of this.live) {
      this.doc.append(i, run.resultJson(this.doc.stepsHeld(i)));
      if (run.status() === 'running') continue;
      run.delete();
      this.live.delete(i);
    }
    this.fill();
  }

  private fill(): void {
    try {
      while (this.live.size < this.concurrent && this.next < this.plan.runs.length) {
        const i = this.next++;
        this.live.set(i, new this.m.GpuTrainRun(JSON.stringify(this.plan.runs[i].train), this.readbackEvery));
      }
    } catch (e) {
      for (const run of this.live.values()) run.delete(); // a lost device: free what was created; the caller falls back to the CPU
      this.live.clear();
      this.doc.delete();
      throw e;
    }
  }
}
