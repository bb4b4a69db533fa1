// lnx.d.ts — typings of the Embind module built from wasm/bindings.cpp (both flavours:
// lnx-st.mjs single-threaded, lnx-mt.mjs threaded). Hand-written: keep in step with bindings.cpp.
// Every config is a JSON string with the keys of docs/json-schema.md; invalid configs and
// arguments throw a JS `Error` whose message starts with "lnx: ". Every object owns wasm memory:
// call delete() when done.

export interface EmbindObject {
  /** Frees the C++ object. Using it afterwards throws. */
  delete(): void;
}

/** The init-time probe of Figures 2 and 3 (docs/json-schema.md, "Probe"). */
export interface ProbeRun extends EmbindObject {
  /** Runs up to `batches` forward/backward passes; returns the fraction done in [0, 1]. */
  step(batches: number): number;
  done(): boolean;
  progress(): number;
  /** The result document; throws until done(). */
  resultJson(): string;
  /** The jobs (placement × seed × depth, in plan order) whose statistics have come in, and what they
   *  measured, to the last bit: what continueFrom takes. */
  handoffJson(): string;
  /** Before the first step: take a hand-off's jobs as `backend` measured them and go on from the next
   *  job; the result then carries "handoff" {backend, jobs, of}. Throws when it does not fit. */
  continueFrom(handoffJson: string, backend: 'webgpu'): void;
}

/** One toy training run (docs/json-schema.md, "Train"). */
export interface TrainRun extends EmbindObject {
  /** Advances up to k optimizer steps; returns the number of steps done so far. */
  step(k: number): number;
  status(): 'running' | 'ok' | 'nan' | 'diverged';
  /** The result document with the per-step arrays from index `from` on (for streaming). */
  resultJson(from: number): string;
  /** Copy the parameters and optimizer state after every `steps`-th step (default: never). */
  setCheckpointEvery(steps: number): void;
  /** The latest checkpoint since the last take (a copy off the heap), or null. */
  takeCheckpoint(): TrainCheckpoint | null;
}

/** The toy warm-up grid of Figure 4 (docs/json-schema.md, "Grid"); runs advance in parallel. */
export interface GridRun extends EmbindObject {
  /** Advances every unfinished run by up to k steps; returns the fraction done. */
  step(k: number): number;
  done(): boolean;
  progress(): number;
  resultJson(from: number): string;
  /**
   * Before the first step: run `run` (plan order) continues what `backend` computed of it. runJson is
   * that run of a Grid document (placement, warm-up, lr and seed must be this run's; its series from
   * step 1). A finished run is taken as it is; a running one continues from `checkpoint` (its series
   * cut there), or from step 1 when null. Throws "lnx: …" when the document or checkpoint does not fit.
   */
  continueRun(run: number, runJson: string, checkpoint: TrainCheckpoint | null, backend: 'webgpu'): void;
}

/** A run's parameters and optimizer state after `step`, packed (no backend padding; api.h TrainCheckpoint). */
export interface TrainCheckpoint {
  step: number;
  values: Float32Array;
}

/**
 * The Grid document of a grid whose runs the caller advances itself (the page's WebGPU grid steps
 * the entries of gridPlanJson in GpuTrainBatches of one shape each): append each run's Train document, or its tail from
 * `stepsHeld(run)`, as it arrives; resultJson is the document GridRun would write.
 */
export interface GridDocument extends EmbindObject {
  runs(): number;
  /** Length of run `run`'s series so far (plan order). */
  stepsHeld(run: number): number;
  /** A Train document of run `run` whose arrays start at its `from` (≤ stepsHeld(run)). */
  append(run: number, trainJson: string): void;
  /** Every run has a final status. */
  done(): boolean;
  progress(): number;
  /** backend: '' or 'webgpu' (recorded in the engine header). */
  resultJson(from: number, backend: '' | 'webgpu'): string;
}

/** An experiment on one of the article's own inferences (docs/experiments.md; `lnx exp NAME`). */
export interface ExperimentRun extends EmbindObject {
  /** Advances by up to `work` units (≥ 1; an experiment's unit is a forward pass, a seed or a step); returns the fraction done. */
  step(work: number): number;
  done(): boolean;
  progress(): number;
  /** The result document {"experiment","engine","config",…} (docs/json-schema.md); throws until done(). */
  resultJson(): string;
}

export interface LnxModule {
  engineVersion(): string;
  /** '-fma': the FMA flavour (lnx-st-fma, lnx-mt-fma), whose GEMM can use fused multiply-adds. */
  buildFlavour(): 'wasm-mt' | 'wasm-st' | 'wasm-mt-fma' | 'wasm-st-fma';
  /** Fused multiply-adds in the GEMM kernel from now on (the FMA flavour; ignored elsewhere).
   *  Off by default: on, the results' last bits depend on the CPU (docs/engine.md, "Flavours"). */
  setGemmFma(on: boolean): void;
  /** Whether the GEMM kernel uses fused multiply-adds now (false unless the FMA flavour and set). */
  gemmFma(): boolean;
  /** Pool size for every op (0 = all cores). wasm-st: always 1; wasm-mt: at most the workers the
   *  module started (one per core, up to 16) plus the calling thread — more is clamped, never a deadlock. */
  setThreads(n: number): void;
  threads(): number;
  /** Registers the article's text in `lang` ("en" or "zh"): the bytes of
   *  data/text/article.<lang>.txt, for runs with data = "text" (docs/engine.md, "Real text"). Throws
   *  for another language or empty bytes; replaces an earlier text of that language. */
  setTextCorpus(lang: string, bytes: Uint8Array): void;
  ProbeRun: new (configJson: string) => ProbeRun;
  TrainRun: new (configJson: string) => TrainRun;
  GridRun: new (configJson: string) => GridRun;
  /** The grid config expanded without running it (validated like GridRun):
   *  {"config": the grid document's config, "runs": [{norm, warmup, lr, seed, train: a TrainRun config}]}. */
  gridPlanJson(configJson: string): string;
  /** Would the engine take this config (kind "probe", "train", "grid" or an experiment's name, as
   *  ExperimentRun takes it)? Never throws for a bad config: {"ok": true, "warnings": [{rule, message}]}
   *  or {"ok": false, "message", "rule"?: the rule across fields it breaks}. The forms' rules across
   *  fields (api.h check_config_json). */
  checkConfigJson(kind: string, configJson: string): string;
  GridDocument: new (configJson: string) => GridDocument;
  /** The experiments' names, as a JSON array (the schema's "experiments" has their configs). */
  experimentNamesJson(): string;
  ExperimentRun: new (name: string, configJson: string) => ExperimentRun;
  /** Every config's fields (type, default, bounds, doc), the placements and the optimizers
   *  (`lnx schema --json`; docs/json-schema.md). */
  schemaJson(): string;
}

export interface LnxFactoryOptions {
  /** Required in Node (its fetch cannot read file: URLs); leave unset in browsers. */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

declare const createLnx: (options?: LnxFactoryOptions) => Promise<LnxModule>;
export default createLnx;
