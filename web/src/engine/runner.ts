// runner.ts — the chunked job loop the worker runs over the Embind module, kept free of worker
// globals so Vitest can drive it with a stand-in module (tests/unit/runner.test.ts).
//
// Covers: creating the C++ run from a JSON config, stepping it in chunks of adaptive size (~120 ms
// each, so cancel/pause are noticed quickly and progress is smooth), progress with elapsed/ETA,
// streaming partial grid documents, cancel between chunks, and always calling .delete().
// Leaves out: choosing and loading the module (worker.ts), queueing (worker.ts).
import type { LnxModule } from './lnx-module';
import type { Reply, Request } from './protocol';
import { mergeGrid, nextFrom, type GridResult, type ProbeResult } from './results';

export interface JobHooks {
  post(reply: Reply): void;
  /** true once the job was cancelled */
  cancelled(): boolean;
  /** resolves when the worker is not paused */
  whilePaused(): Promise<void>;
  /** let queued messages (cancel, pause) be handled */
  yieldToEvents(): Promise<void>;
  now(): number;
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

type JobRequest = Extract<Request, { type: 'probe' | 'grid' }>;

/** Run one job to completion, cancellation or error; posts exactly one terminal reply. */
export async function runJob(m: LnxModule, req: JobRequest, h: JobHooks): Promise<void> {
  const { id } = req;
  let run: { step(k: number): number; done(): boolean; delete(): void } | null = null;
  try {
    const json = JSON.stringify(req.config);
    const probe = req.type === 'probe' ? new m.ProbeRun(json) : null;
    const grid = req.type === 'grid' ? new m.GridRun(json) : null;
    run = (probe ?? grid)!;
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
      const dt = h.now() - t0;
      elapsed += dt;
      k = nextChunk(k, dt);
      let partial: GridResult | undefined;
      if (grid) {
        partial = JSON.parse(grid.resultJson(nextFrom(acc))) as GridResult;
        acc = mergeGrid(acc, partial);
      }
      h.post({ type: 'progress', id, fraction, elapsedMs: elapsed, etaMs: eta(fraction, elapsed), partial });
    }
    const result = probe
      ? (JSON.parse(probe.resultJson()) as ProbeResult)
      : (JSON.parse(grid!.resultJson(nextFrom(acc))) as GridResult);
    h.post({ type: 'done', id, result, elapsedMs: elapsed });
  } catch (e) {
    h.post({ type: 'error', id, message: errorMessage(e) });
  } finally {
    run?.delete();
  }
}

/** The message of whatever the engine threw (an Error, a string, or a bare exception pointer). */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'string') return e;
  if (typeof e === 'number') return `lnx: engine exception (code ${e})`;
  return String(e);
}
