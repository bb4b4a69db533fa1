// protocol.ts — the messages between the page (client.ts) and the engine worker (worker.ts).
//
// One worker runs one job at a time; further jobs wait in a queue. Every job has a numeric `id`
// chosen by the client; every reply about a job carries it. A job ends with exactly one of
// `done`, `error` or `cancelled`. Progress messages are sent after each chunk of work.
//
//   page                               worker
//   init{search} ───────────────────▶ picks the backend (backend-choice.ts: WebGPU if an adapter
//                                      passes the self-test, else lnx-mt.mjs if crossOriginIsolated,
//                                      else lnx-st.mjs, each as its -fma flavour where relaxed SIMD
//                                      validates; ?backend=cpu|webgpu in `search` overrides)
//   ◀─────────────────────────────── ready{backend,reason} | load-error
//   ◀─────────────────────────────── backend{backend,reason}  (the GPU failed: the job restarts on the CPU)
//   probe{id,config} / grid{id,config} / experiment{id,name,config} ▶ (experiments: always on the CPU engine)
//   ◀─────────────────────────────── progress{id,…}*  (grid: with a streamed partial document)
//   cancel{id} ─────────────────────▶ (checked between chunks; the C++ object is deleted)
//   ◀─────────────────────────────── done{id,result} | error{id,message} | cancelled{id}
//   pause / resume ─────────────────▶ (tab hidden / visible: the worker idles between chunks)
//   memory ─────────────────────────▶ ◀── memory{heapBytes,usedBytes,heapBytesAfter} (tests, docs/robustness.md)
//   check{id,kind,config} ──────────▶ ◀── checked{id,check}  (answered at once, between a job's chunks)
import type { Backend, BackendWhy } from './backend-choice';
import type { Flavour } from './lnx-module';
import type { ExperimentResult, GridConfig, GridResult, ProbeConfig, ProbeResult } from './documents';

/** How a job computes. `exact`: the deterministic arithmetic, the same bits on every CPU (the
 *  FMA flavour's fused kernel off), for a run that reproduces a precomputed document; otherwise
 *  the FMA flavour, where loaded, uses fused multiply-adds (docs/engine.md, "Flavours"). */
export interface JobOptions {
  exact?: boolean;
}

/** What the engine says of a config before it runs (api.h check_config_json): it would take it,
 *  with the warning rules that apply; or it would refuse it, with the run's own error message and
 *  the rule across fields it breaks (none for a single field's bound). `ok: null`: the engine
 *  could not be asked (it failed to load); the run itself will say. */
/** How an experiment's runs went to the GPU: per batch made, its runs and its step's batched dispatches. */
export type GpuBatches = { runs: number; dispatches: number }[];

export type ConfigCheck =
  | { ok: true; warnings: { rule: string; message: string }[] }
  | { ok: false; message: string; rule?: string }
  | { ok: null; message: string };

/** What checkConfig asks about: a probe, train or grid config, or an experiment's (its name). */
export type CheckKind = 'probe' | 'train' | 'grid' | (string & {});

/** Page → worker. */
export type Request =
  /** First message: the page's location.search (the worker cannot see the page's URL). */
  | { type: 'init'; search: string }
  /** Test hook (window.__lnx.loseGpu): destroys the WebGPU device to exercise the CPU fallback. */
  | { type: 'lose-gpu' }
  /** Run the init-time probe (Figures 2–3); replies: progress*, then done{result: ProbeResult}. */
  | ({ type: 'probe'; id: number; config: Partial<ProbeConfig> } & JobOptions)
  /** Run the toy training grid (Figure 4); progress carries `partial`, a delta Grid document. */
  | ({ type: 'grid'; id: number; config: Partial<GridConfig> } & JobOptions)
  /** Run an experiment on the article's inferences (docs/experiments.md) by its engine name. */
  | ({ type: 'experiment'; id: number; name: string; config: Record<string, unknown> } & JobOptions)
  /** Stop a queued or running job at the next chunk boundary. */
  | { type: 'cancel'; id: number }
  /** Idle between chunks until `resume` (the page is hidden); elapsed time stops counting. */
  | { type: 'pause' }
  | { type: 'resume' }
  /** Report the wasm heap (after the module loaded); answered between chunks of a running job. */
  | { type: 'memory' }
  /** Would the engine take this config? (the forms' rules across fields) */
  | { type: 'check'; id: number; kind: CheckKind; config: unknown };

/** Worker → page. */
export type Reply =
  /** The module loaded. */
  | {
      type: 'ready';
      version: string;
      flavour: Flavour;
      threads: number;
      crossOriginIsolated: boolean;
      /** which engine runs the jobs, and why (backend-choice.ts chooseBackend: a code and an English
       *  sentence) */
      backend: Backend;
      reason: string;
      why: BackendWhy;
      detail: string;
      asked: boolean;
    }
  /** The GPU failed during a job: from now on the jobs run on `backend` (a CPU one); the job restarts. */
  | { type: 'backend'; backend: Backend; reason: string; why: BackendWhy; detail: string; asked: boolean; flavour: Flavour; threads: number }
  /** The module could not be loaded; every job will fail with this message. */
  | { type: 'load-error'; message: string }
  | {
      type: 'progress';
      id: number;
      /** fraction done in [0, 1] */
      fraction: number;
      /** compute time so far, ms (paused time excluded) */
      elapsedMs: number;
      /** estimated remaining time, ms; null until something is done */
      etaMs: number | null;
      /** grid jobs: every run's arrays from index `partial.from` (merge with mergeGrid) */
      partial?: GridResult;
      /** an experiment run batched on WebGPU: its batches so far (GpuPhaseDiagram.batchesJson) */
      batches?: GpuBatches;
    }
  /** Grid jobs send a final delta document to merge, probe jobs the whole result. */
  | { type: 'done'; id: number; result: ProbeResult | GridResult | ExperimentResult; elapsedMs: number }
  /** The engine threw (invalid config: message starts with 'lnx: ') or the module failed. */
  | { type: 'error'; id: number; message: string }
  | { type: 'cancelled'; id: number }
  /**
   * The wasm heap: `heapBytes` = HEAP8.length; `usedBytes` = heapBytes minus what a scan of
   * 64 KiB malloc blocks found free (allocator bookkeeping included); the scan may grow the heap
   * by one step, `heapBytesAfter` is HEAP8.length after it.
   */
  | { type: 'memory'; heapBytes: number; usedBytes: number; heapBytesAfter: number }
  | { type: 'checked'; id: number; check: ConfigCheck };

export type JobKind = 'probe' | 'grid' | 'experiment';
