// runner.ts — the chunked job loop the worker runs over the Embind module, kept free of worker
// globals so Vitest can drive it with a stand-in module (tests/unit/engine-runner.test.ts).
//
// Covers: creating the C++ run from a JSON config, stepping it in chunks of adaptive size (~120 ms
// each, so cancel/pause are noticed quickly and progress is smooth), progress with elapsed/ETA,
// streaming partial grid documents, cancel between chunks, and always calling .delete().
// Leaves out: choosing and loading the module (worker.ts), queueing (worker.ts).
import type { GpuBatches, Reply, Request } from './protocol';
import { mergeGrid, nextFrom, type ExperimentResult, type GridResult, type ProbeResult } from './documents';
import type { Checkpoint, GridHandoff } from './gpu-grid';

export interface JobHooks {
  post(reply: Reply): void;
  /** true once the job was cancelled */
  cancelled(): boolean;
  /** resolves when the worker is not paused */
  whilePaused(): Promise<void>;
  /** let queued messages (cancel, pause) be handled */
  yieldToEvents(): Promise<void>;
  now(): number;
  /** A GPU failure the caller takes over (rethrow): what the failed grid computed, for the CPU to
   *  continue (gpu-grid.ts handoff()); called before the run is deleted. */
  handoff?(h: GridHandoff): void;
  /** The same for a probe: the jobs whose statistics had come in (GpuProbeRun.handoffJson). */
  probeHandoff?(json: string): void;
  /** Called with a new grid before its first step (the worker's CPU continuation of a GPU grid). */
  prepareGrid?(grid: InstanceType<JobEngine['GridRun']>): void;
  /** Called with a new probe before its first step (the worker's CPU continuation of a GPU probe). */
  prepareProbe?(probe: InstanceType<JobEngine['ProbeRun']>): void;
}

/** Target wall time of one chunk, ms. */
export const CHUNK_MS = 120;

/** Next chunk size from the last one's size and duration: aim for CHUNK_MS, grow at most 2×. */
export function nextChunk(k: number, ms: number, max = 256): number {
  if (!(ms > 0)) return Math.min(k * 2, max);
  return Math.max(1, Math.min(max, k * 2, Math.round((k * CHUNK_MS) / ms)));
}

export function eta(fraction: number, elapsedMs: number): number | null {
  if (!(fraction > 0) || fraction >= 1) return fraction >= 1 ? 0 : null;
  return (elapsedMs * (1 - fraction)) / fraction;
}

type JobRequest = Extract<Request, { type: 'probe' | 'grid' | 'experiment' }>;

/**
 * What a job needs of an engine: the CPU module (LnxModule) as it is, or the WebGPU one adapted by
 * worker.ts (GpuProbeRun, gpu-grid.ts, and `settled`, which resolves when the work recorded by the
 * last step() has been read back).
 */
export interface JobEngine {
  ProbeRun: new (configJson: string) => {
    step(k: number): number;
    done(): boolean;
    resultJson(): string;
    delete(): void;
    /** both engines': the jobs whose statistics have come in (lnx.d.ts ProbeRun.handoffJson) */
    handoffJson?(): string;
    /** the CPU engine's (lnx.d.ts ProbeRun.continueFrom) */
    continueFrom?(handoffJson: string, backend: 'webgpu'): void;
  };
  GridRun: new (configJson: string) => {
    step(k: number): number;
    done(): boolean;
    resultJson(from: number): string;
    delete(): void;
    /** the CPU engine's (lnx.d.ts GridRun.continueRun) */
    continueRun?(run: number, runJson: string, checkpoint: Checkpoint | null, backend: 'webgpu'): void;
    /** the WebGPU grid's (gpu-grid.ts) */
    handoff?(): GridHandoff;
  };
  settled?: () => Promise<void>;
  /** the experiments (CPU modules only; worker.ts runs them on the CPU engine) */
  ExperimentRun?: new (
    name: string,
    configJson: string,
  ) => {
    step(k: number): number;
    done(): boolean;
    resultJson(): string;
    delete(): void;
    /** a GPU experiment's (GpuPhaseDiagram): its batches so far, a JSON array */
    batchesJson?(): string;
  };
}

/** Run one job to completion, cancellation or error; posts exactly one terminal reply, unless
 *  `rethrow(e)` claims the error (the worker's GPU → CPU fallback), in which case it throws it. */
export async function runJob(m: JobEngine, req: JobRequest, h: JobHooks, rethrow?: (e: unknown) => boolean): Promise<void> {
  const { id } = req;
  let run: { step(k: number): number; done(): boolean; delete(): void } | null = null;
  try {
    const json = JSON.stringify(req.config);
    const probe = req.type === 'probe' ? new m.ProbeRun(json) : null;
    if (probe) h.prepareProbe?.(probe);
    const grid = req.type === 'grid' ? new m.GridRun(json) : null;
    if (grid) h.prepareGrid?.(grid);
    if (req.type === 'experiment' && !m.ExperimentRun) throw new Error('lnx: this engine does not run experiments');
    const exp = req.type === 'experiment' ? new m.ExperimentRun!(req.name, json) : null;
    run = (probe ?? grid ?? exp)!;
    let acc: GridResult | null = null; // the worker's merged copy, only to know where to stream from
    let elapsed = 0;
    let k = 1;
    let fraction = 0;
    while (!run.done()) {
      await h.yieldToEvents();
      await h.whilePaused();
      if (h.cancelled()) {
        h.post({ type: 'cancelled', id });
        return;
      }
      const t0 = h.now();
      fraction = run.step(k);
      if (m.settled) await m.settled();
      const dt = h.now() - t0;
      elapsed += dt;
      k = nextChunk(k, dt);
      let partial: GridResult | undefined;
      if (grid) {
        partial = JSON.parse(grid.resultJson(nextFrom(acc))) as GridResult;
        acc = mergeGrid(acc, partial);
      }
      const batches = exp?.batchesJson ? (JSON.parse(exp.batchesJson()) as GpuBatches) : undefined;
      h.post({ type: 'progress', id, fraction, elapsedMs: elapsed, etaMs: eta(fraction, elapsed), partial, ...(batches ? { batches } : {}) });
    }
    const result = probe
      ? (JSON.parse(probe.resultJson()) as ProbeResult)
      : exp
        ? (JSON.parse(exp.resultJson()) as ExperimentResult)
        : (JSON.parse(grid!.resultJson(nextFrom(acc))) as GridResult);
    h.post({ type: 'done', id, result, elapsedMs: elapsed });
  } catch (e) {
    if (rethrow?.(e)) {
      const g = run as { handoff?: () => GridHandoff; handoffJson?: () => string } | null;
      try {
        if (g?.handoff) h.handoff?.(g.handoff());
        else if (g?.handoffJson) h.probeHandoff?.(g.handoffJson());
      } catch {
        // nothing to hand over: the caller restarts the job
      }
      throw e;
    }
    h.post({ type: 'error', id, message: errorMessage(e) });
  } finally {
    try {
      run?.delete();
    } catch {
      // a lost GPU device can make delete() throw too; the object is gone either way
    }
  }
}

/** The message of whatever the engine threw (an Error, a string, or a bare exception pointer). */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'string') return e;
  if (typeof e === 'number') return `lnx: engine exception (code ${e})`;
  return String(e);
}
