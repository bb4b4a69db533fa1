// gpu-grid.ts — the toy grid of Figure 4 on the WebGPU backend, with the interface of the CPU
// engine's GridRun (step / done / resultJson / delete), so the worker's job loop runs either.
//
// Why not one C++ GridRun: the CPU grid advances its runs on pool threads; on the GPU each run is a
// GpuTrainRun whose steps are recorded and submitted without waiting, and the JS loop awaits the
// readbacks (docs/webgpu.md). The engine expands and validates the grid config (gridPlanJson), so
// the runs, their order and every default are the engine's; this file only schedules them and
// assembles their Train documents into one Grid document (docs/json-schema.md).
//
// At most `concurrent` runs live on the device at once (each holds its parameters, Adam state and
// activations: ~70 MB at the toy's size); a finished run's document is kept and its GPU buffers
// freed. Leaves out: the CPU fallback after a device loss (worker.ts restarts the job on the CPU).
import type { EngineInfo, GridConfig, GridResult, GridRunDoc, Norm, RunStatus } from './results';

/** One run of the plan: its place in the grid and the TrainRun config the engine wrote for it. */
export interface PlanRun {
  norm: Norm;
  warmup: number;
  lr: number;
  seed: number;
  train: Record<string, unknown>;
}
export interface GridPlan {
  config: GridConfig;
  runs: PlanRun[];
}

/** The Train document of one run (the fields read here). */
export interface TrainDoc {
  engine: EngineInfo;
  config: { steps: number };
  plateau_entropy: number;
  optimal_loss: number;
  uniform_loss: number;
  status: RunStatus;
  stop_step: number | null;
  steps_done: number;
  from: number;
  loss: number[];
  grad_norm: number[];
  lr: number[];
}

export interface GpuTrainLike {
  step(k: number): number;
  status(): RunStatus;
  resultJson(from: number): string;
  delete(): void;
}
export interface GpuGridModule {
  gridPlanJson(configJson: string): string;
  GpuTrainRun: new (configJson: string, readbackEvery: number) => GpuTrainLike;
  engineVersion(): string;
}

/** Runs on the device at once. */
export const GPU_GRID_CONCURRENT = 4;
/** Losses are read back every this many steps (and at the end of every step() call). */
export const GPU_GRID_READBACK = 8;

/** A Train document cut to its arrays from `from` on (as resultJson(from) would return it). */
export function sliceTrainDoc(d: TrainDoc, from: number): TrainDoc {
  const f = Math.max(0, Math.min(from, d.loss.length));
  return { ...d, from: f, loss: d.loss.slice(f), grad_norm: d.grad_norm.slice(f), lr: d.lr.slice(f) };
}

/** Fraction of the grid's steps done; a stopped (nan / diverged) run counts as complete. */
export function gridProgress(plan: GridPlan, docs: (TrainDoc | null)[]): number {
  const steps = plan.config.steps;
  if (!plan.runs.length || !(steps > 0)) return 1;
  let got = 0;
  docs.forEach((d) => (got += !d ? 0 : d.status === 'running' ? Math.min(d.steps_done, steps) : steps));
  return got / (plan.runs.length * steps);
}

/**
 * The Grid document from the plan and each run's latest Train document (null: not started yet, drawn
 * as a running run with no points). Reference losses come from any run's document (they depend on
 * the chain and the vocabulary only, which the grid shares); `fallback` supplies them before any run
 * has reported.
 */
export function assembleGrid(
  plan: GridPlan,
  docs: (TrainDoc | null)[],
  engine: EngineInfo,
  fallback: Pick<GridResult, 'plateau_entropy' | 'optimal_loss' | 'uniform_loss'> | null = null,
): GridResult {
  const any = docs.find((d): d is TrainDoc => d != null);
  const ref = any ?? fallback;
  const runs: GridRunDoc[] = plan.runs.map((r, i) => {
    const d = docs[i];
    return {
      norm: r.norm,
      warmup: r.warmup,
      lr: r.lr,
      seed: r.seed,
      status: d?.status ?? 'running',
      stop_step: d?.stop_step ?? null,
      steps_done: d?.steps_done ?? 0,
      from: d?.from ?? 0,
      loss: d?.loss ?? [],
      grad_norm: d?.grad_norm ?? [],
      lr_schedule: d?.lr ?? [],
    };
  });
  return {
    engine,
    config: plan.config,
    plateau_entropy: ref?.plateau_entropy ?? NaN,
    optimal_loss: ref?.optimal_loss ?? NaN,
    uniform_loss: ref?.uniform_loss ?? NaN,
    progress: gridProgress(plan, docs),
    runs,
  };
}

/** The grid over GpuTrainRun objects; the caller awaits the module's settled() after each step(). */
export class GpuGrid {
  readonly plan: GridPlan;
  private readonly live = new Map<number, GpuTrainLike>();
  private readonly finished: (TrainDoc | null)[];
  private next = 0;
  private readonly engine: EngineInfo;

  constructor(
    private readonly m: GpuGridModule,
    configJson: string,
    private readonly concurrent = GPU_GRID_CONCURRENT,
    private readonly readbackEvery = GPU_GRID_READBACK,
  ) {
    this.plan = JSON.parse(m.gridPlanJson(configJson)) as GridPlan; // throws "lnx: …" on a bad config
    this.finished = this.plan.runs.map(() => null);
    this.engine = { version: m.engineVersion(), build: 'wasm-st', threads: 1, backend: 'webgpu' };
    this.fill();
  }

  /** Records up to k more steps of every live run; returns the fraction done so far. */
  step(k: number): number {
    this.retire();
    for (const run of this.live.values()) run.step(k);
    return gridProgress(this.plan, this.docs(0));
  }

  done(): boolean {
    this.retire();
    return this.next >= this.plan.runs.length && this.live.size === 0;
  }

  progress(): number {
    return gridProgress(this.plan, this.docs(0));
  }

  resultJson(from: number): string {
    this.retire();
    return JSON.stringify(assembleGrid(this.plan, this.docs(from), this.engine));
  }

  delete(): void {
    for (const run of this.live.values()) run.delete();
    this.live.clear();
  }

  private docs(from: number): (TrainDoc | null)[] {
    return this.plan.runs.map((_, i) => {
      const f = this.finished[i];
      if (f) return sliceTrainDoc(f, from);
      const run = this.live.get(i);
      return run ? (JSON.parse(run.resultJson(from)) as TrainDoc) : null;
    });
  }

  /** Keeps the documents of runs that stopped and frees their device memory; starts queued runs. */
  private retire(): void {
    for (const [i, run] of this.live) {
      if (run.status() === 'running') continue;
      this.finished[i] = JSON.parse(run.resultJson(0)) as TrainDoc;
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
      this.delete(); // a lost device: free what was created; the caller falls back to the CPU
      throw e;
    }
  }
}
