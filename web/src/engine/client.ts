// client.ts — the ONE typed facade the page imports to talk to the engine.
//
//   runProbe(config, onProgress?, signal?)  → Promise<ProbeResult>   (Figures 2–3)
//   runGrid(config, onProgress?, signal?)   → Promise<GridResult>    (Figure 4; streams partials)
//   runExperiment(name, config, onProgress?, signal?) → Promise<ExperimentResult> (docs/experiments.md; CPU)
//   engineInfo()                            → Promise<EngineReady>   (version, backend and why, flavour, threads)
//   onEngineChange(cb)                      → unsubscribe            (the GPU failed: jobs moved to the CPU)
//   engineMemory()                          → Promise<EngineMemory>  (wasm heap; tests and docs/robustness.md)
//   checkConfig(kind, config)               → Promise<ConfigCheck>   (would the engine take it? the forms' rules)
//
// One worker, created lazily on the first call. Cancel with an AbortSignal: the worker stops between
// chunks and deletes the C++ object; the promise rejects with EngineError{kind:'cancelled'}.
// Engine errors (invalid config etc.) reject with EngineError{kind:'engine', message from the
// engine}. While the tab is hidden the worker is paused (progress reports `paused: true`).
import type { CheckKind, ConfigCheck, GpuBatches, JobOptions, Reply, Request } from './protocol';
import { mergeGrid, type ExperimentResult, type GridConfig, type GridResult, type ProbeConfig, type ProbeResult } from './documents';
import { throttle } from './stream-throttle';

export type EngineErrorKind = 'engine' | 'load' | 'cancelled' | 'worker';

/** Every failure of a run: `kind` says why, `message` is the engine's own text for 'engine'. */
export class EngineError extends Error {
  readonly kind: EngineErrorKind;
  constructor(kind: EngineErrorKind, message: string) {
    super(message);
    this.name = 'EngineError';
    this.kind = kind;
  }
}

export interface Progress {
  /** fraction done in [0, 1] */
  fraction: number;
  /** compute time so far, ms */
  elapsedMs: number;
  /** estimated remaining ms, null while unknown */
  etaMs: number | null;
  /** the worker idles: the tab is hidden, or the reader paused (`pausedBy` says which) */
  paused: boolean;
  pausedBy?: 'hidden' | 'reader' | null;
}

/** Version, backend and why, flavour and threads of the loaded engine (protocol.ts 'ready'). */
export type EngineReady = Omit<Extract<Reply, { type: 'ready' }>, 'type'>;

interface Job {
  onReply(r: Reply): void;
  onPause(by: 'hidden' | 'reader' | null): void;
  fail(e: EngineError): void;
}

let worker: Worker | null = null;
let ready: Promise<EngineReady> | null = null;
let nextId = 1;
const jobs = new Map<number, Job>();
let hidden = false;
/** the reader pressed Pause (lib/result-slots.svelte.ts Slot.pause) */
let userPaused = false;
const pausedBy = (): 'hidden' | 'reader' | null => (userPaused ? 'reader' : hidden ? 'hidden' : null);
/** the page's title while no run is paused by a hidden tab (restored when it shows again) */
let plainTitle: string | null = null;

/** Tell the worker whether to idle, the jobs why, and the tab strip: a hidden tab's title says
 *  that its run is paused ("⏸ …"), so the reader sees it without switching back. */
function syncPause() {
  const by = pausedBy();
  worker?.postMessage({ type: by ? 'pause' : 'resume' } satisfies Request);
  for (const j of jobs.values()) j.onPause(by);
  if (typeof document === 'undefined') return;
  if (hidden && jobs.size && plainTitle == null) {
    plainTitle = document.title;
    document.title = `⏸ ${plainTitle}`;
  } else if (!hidden && plainTitle != null) {
    document.title = plainTitle;
    plainTitle = null;
  }
}

/** Pause (or resume) the engine's work at the reader's request: the running job idles between
 *  chunks, elapsed time stops, and what it computed is kept; Cancel still works while paused. */
export function setPaused(p: boolean): void {
  if (userPaused === p) return;
  userPaused = p;
  syncPause();
}

/** Jobs sent to the worker and not finished: a new one waits behind them (the worker runs one at a time). */
export const jobsAhead = (): number => jobs.size;
const memoryWaiters: ((m: EngineMemory) => void)[] = [];
/** checkConfig's answers still to come, by request id */
const checkWaiters = new Map<number, (c: ConfigCheck) => void>();
const engineListeners = new Set<(e: EngineReady) => void>();

/** The wasm heap of the engine worker (protocol.ts 'memory'). */
export type EngineMemory = Omit<Extract<Reply, { type: 'memory' }>, 'type'>;

function ensureWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'lnx-engine' });
  worker = w;
  let resolveReady!: (r: EngineReady) => void;
  let rejectReady!: (e: EngineError) => void;
  ready = new Promise((res, rej) => ((resolveReady = res), (rejectReady = rej)));
  ready.catch(() => {}); // observed by callers of engineInfo(); avoid an unhandled rejection here
  let current: EngineReady | null = null;
  w.onmessage = (ev: MessageEvent<Reply>) => {
    const r = ev.data;
    if (r.type === 'ready') {
      const { type: _, ...info } = r;
      current = info;
      resolveReady(current);
      return engineListeners.forEach((f) => f(current!));
    }
    if (r.type === 'backend') {
      const base = current ?? { version: '', crossOriginIsolated: false };
      const { type: _, ...change } = r;
      current = { ...base, ...change };
      ready = Promise.resolve(current);
      return engineListeners.forEach((f) => f(current!));
    }
    if (r.type === 'load-error') return rejectReady(new EngineError('load', r.message));
    if (r.type === 'memory') {
      const { type: _, ...memory } = r;
      return void memoryWaiters.splice(0).forEach((f) => f(memory));
    }
    if (r.type === 'checked') {
      const f = checkWaiters.get(r.id);
      checkWaiters.delete(r.id);
      return f?.(r.check);
    }
    jobs.get(r.id)?.onReply(r);
  };
  w.onerror = (ev) => {
    ev.preventDefault();
    const e = new EngineError('worker', ev.message || 'the engine worker failed to start');
    rejectReady(e);
    for (const j of jobs.values()) j.fail(e);
    jobs.clear();
    for (const f of checkWaiters.values()) f({ ok: null, message: e.message });
    checkWaiters.clear();
    worker = null; // the next call starts a fresh worker
  };
  // The worker cannot see the page's URL: it needs ?backend= (backend-choice.ts) from here.
  w.postMessage({ type: 'init', search: typeof location !== 'undefined' ? location.search : '' } satisfies Request);
  if (typeof document !== 'undefined') {
    const sync = () => {
      const h = document.visibilityState === 'hidden';
      if (h === hidden) return;
      hidden = h;
      syncPause();
    };
    document.addEventListener('visibilitychange', sync);
    sync();
  }
  return w;
}

/** Version, flavour and thread count of the loaded engine (starts the worker if needed). */
export function engineInfo(): Promise<EngineReady> {
  ensureWorker();
  return ready!;
}

/** Calls `cb` with the engine once it is ready (after the first run started it) and again whenever
 *  the backend changes (a GPU failure moved the jobs to the CPU). Returns the unsubscribe function. */
export function onEngineChange(cb: (e: EngineReady) => void): () => void {
  engineListeners.add(cb);
  ready?.then(cb, () => {}); // does not start the worker: the page loads the engine only for a run
  return () => engineListeners.delete(cb);
}

/** Test hook (window.__lnx.loseGpu): destroys the worker's WebGPU device, if it has one. */
export function loseGpu(): void {
  ensureWorker().postMessage({ type: 'lose-gpu' } satisfies Request);
}

/** The engine worker's wasm heap (starts the worker if needed; waits for the module). */
export function engineMemory(): Promise<EngineMemory> {
  const w = ensureWorker();
  return new Promise((resolve) => {
    memoryWaiters.push(resolve);
    w.postMessage({ type: 'memory' } satisfies Request);
  });
}

/**
 * Would the engine take this config, and which of its warning rules apply? One call for every
 * rule across fields (memory, run count, a warm-up longer than the run): the forms ask the engine
 * instead of re-implementing them. Starts the worker if needed; answered between a job's chunks.
 */
export function checkConfig(kind: CheckKind, config: unknown): Promise<ConfigCheck> {
  const w = ensureWorker();
  const id = nextId++;
  return new Promise((resolve) => {
    checkWaiters.set(id, resolve);
    w.postMessage({ type: 'check', id, kind, config } satisfies Request);
  });
}

export type { CheckKind, ConfigCheck } from './protocol';

function start<T>(
  make: (id: number) => Request,
  onProgress: ((p: Progress, r: Reply & { type: 'progress' }) => void) | undefined,
  onDone: (r: Reply & { type: 'done' }) => T,
  signal?: AbortSignal,
): Promise<T> {
  if (signal?.aborted) return Promise.reject(new EngineError('cancelled', 'cancelled'));
  const w = ensureWorker();
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    let last: Progress = { fraction: 0, elapsedMs: 0, etaMs: null, paused: pausedBy() != null, pausedBy: pausedBy() };
    const finish = () => {
      jobs.delete(id);
      signal?.removeEventListener('abort', abort);
    };
    const abort = () => w.postMessage({ type: 'cancel', id } satisfies Request);
    jobs.set(id, {
      onReply(r) {
        switch (r.type) {
          case 'progress':
            last = { fraction: r.fraction, elapsedMs: r.elapsedMs, etaMs: r.etaMs, paused: pausedBy() != null, pausedBy: pausedBy() };
            onProgress?.(last, r);
            return;
          case 'done':
            finish();
            try {
              resolve(onDone(r));
            } catch (e) {
              reject(new EngineError('engine', `malformed result: ${(e as Error).message}`));
            }
            return;
          case 'error':
            finish();
            return reject(new EngineError('engine', r.message));
          case 'cancelled':
            finish();
            return reject(new EngineError('cancelled', 'cancelled'));
        }
      },
      onPause(by) {
        last = { ...last, paused: by != null, pausedBy: by };
        onProgress?.(last, { type: 'progress', id, fraction: last.fraction, elapsedMs: last.elapsedMs, etaMs: last.etaMs });
      },
      fail(e) {
        finish();
        reject(e);
      },
    });
    signal?.addEventListener('abort', abort, { once: true });
    w.postMessage(make(id));
  });
}

/** Run the init-time probe (Figures 2–3). */
export function runProbe(
  config: Partial<ProbeConfig>,
  onProgress?: (p: Progress) => void,
  signal?: AbortSignal,
  options: JobOptions = {},
): Promise<ProbeResult> {
  return start<ProbeResult>(
    (id) => ({ type: 'probe', id, config, ...options }),
    onProgress && ((p) => onProgress(p)),
    (r) => r.result as ProbeResult,
    signal,
  );
}

/**
 * How often a streaming grid reaches the page, ms. The worker sends its steps every ~120 ms chunk
 * (runner.ts: cancel and pause answer that fast), but each update the page takes redraws Figure 4
 * and its run list on the main thread, which on a 2-core machine is time taken from the engine's
 * threads; so updates are merged in between and handed on at most this often.
 */
export const GRID_UPDATE_MS = 1000;

/**
 * Run the toy training grid (Figure 4). `onProgress` receives the grid so far (curves grow as they
 * arrive) at most every GRID_UPDATE_MS, at once when the run pauses or resumes, and, before a cancelled or
 * failed run rejects, with everything computed until then; the promise resolves with the complete grid.
 */
export function runGrid(
  config: Partial<GridConfig>,
  onProgress?: (p: Progress, partial: GridResult) => void,
  signal?: AbortSignal,
  options: JobOptions = {},
): Promise<GridResult> {
  let acc: GridResult | null = null;
  const updates = throttle<Progress>(
    GRID_UPDATE_MS,
    () => performance.now(),
    (p) => onProgress?.(p, acc!),
  );
  return start<GridResult>(
    (id) => ({ type: 'grid', id, config, ...options }),
    (p, r) => {
      if (r.partial) acc = mergeGrid(acc, r.partial);
      if (acc) updates.offer(p);
    },
    (r) => (acc = mergeGrid(acc, r.result as GridResult)),
    signal,
  ).catch((e) => {
    updates.flush(); // what was computed stays (the run list keeps it, marked partial)
    throw e;
  });
}

/** Run an experiment on the article's inferences (docs/experiments.md): on the CPU engine, but the
 *  phase diagram on a page on WebGPU (backend-choice.ts GPU_EXPERIMENTS), whose progress then says how
 *  its runs were batched (`batches`). */
export function runExperiment<T extends ExperimentResult = ExperimentResult>(
  name: string,
  config: Record<string, unknown>,
  onProgress?: (p: Progress, batches?: GpuBatches) => void,
  signal?: AbortSignal,
  options: JobOptions = {},
): Promise<T> {
  return start<T>(
    (id) => ({ type: 'experiment', id, name, config, ...options }),
    onProgress && ((p, r) => onProgress(p, r.batches)),
    (r) => r.result as T,
    signal,
  );
}
