// lnx-gpu.d.ts — typings of lnx-gpu.mjs: the single-threaded engine (everything of lnx.d.ts) plus
// the WebGPU classes of wasm/gpu/bindings_gpu.cpp. Hand-written: keep in step with that file.
// Create the module with the page's device: `createLnx({ gpuDevice })`. GPU runs are stepped by a
// JS async loop: `run.step(k); await module.lnxGpu.settled();` — step() records and submits GPU
// work without waiting; settled() resolves when the scheduled readbacks (losses, statistics) have
// landed. A lost or failing device makes any call throw `Error("lnx: gpu: …")`
// (web/src/engine/backend-choice.ts falls back to the CPU on it). docs/webgpu.md has the design.
import type { EmbindObject, LnxModule, LnxFactoryOptions, TrainCheckpoint } from './lnx';

/** The init-time probe on the GPU: same config and result document as ProbeRun
 *  (engine.backend = "webgpu"). */
export interface GpuProbeRun extends EmbindObject {
  /** Records up to `batches` passes; returns the fraction done (< 1 until the statistics landed). */
  step(batches: number): number;
  done(): boolean;
  progress(): number;
  resultJson(): string;
  /** The jobs whose statistics have landed (works after a lost device): for the CPU's
   *  ProbeRun.continueFrom. */
  handoffJson(): string;
}

/** One toy training run on the GPU: same config and result document as TrainRun. */
export interface GpuTrainRun extends EmbindObject {
  /** Records up to k more steps; returns the number of steps whose loss has landed. */
  step(k: number): number;
  /** Steps recorded on the GPU so far (≥ the steps whose results landed). */
  stepsRecorded(): number;
  status(): 'running' | 'ok' | 'nan' | 'diverged';
  resultJson(from: number): string;
  /** Read the parameters and optimizer state back after every `steps`-th step (default: never). */
  setCheckpointEvery(steps: number): void;
  /** The latest checkpoint that landed since the last take (a copy off the heap), or null. */
  takeCheckpoint(): TrainCheckpoint | null;
}

/** Runs of one shape (a grid plan's equal `shape`: they differ only in learning rate, warm-up, seed,
 *  chain and optimizer coefficients) on the GPU side by side, every step one set of dispatches for all
 *  (wasm/gpu/gpu_batch_run.h). Each run's result equals that run alone as a GpuTrainRun, bit for bit.
 *  The constructor throws "lnx: gpu batch too large: at most N runs: …" when the device's buffer
 *  limits cannot hold them all. */
export interface GpuTrainBatch extends EmbindObject {
  size(): number;
  /** Records up to k more steps of every running run; returns the steps recorded (fewer when 256 are unread). */
  step(k: number): number;
  stepsRecorded(): number;
  /** Batched dispatches of the last step recorded (the same for 1 run or many). */
  dispatchesPerStep(): number;
  status(run: number): 'running' | 'ok' | 'nan' | 'diverged';
  resultJson(run: number, from: number): string;
  /** Records no more steps of run `run` (its readbacks already scheduled still land; its status stays). */
  halt(run: number): void;
  /** For every run of the batch (GpuTrainRun.setCheckpointEvery). */
  setCheckpointEvery(steps: number): void;
  takeCheckpoint(run: number): TrainCheckpoint | null;
}

/** The `phase-diagram` experiment on WebGPU (wasm/gpu/gpu_phase_diagram.h): its runs of one shape as
 *  one batch, the CPU experiment's outcome rule and document (with "backend": "webgpu"). ExperimentRun's
 *  interface; the caller awaits lnxGpu.settled() after each step(). */
export interface GpuPhaseDiagram extends EmbindObject {
  /** Reads the landed losses, then records up to `work` more steps of every live batch; the fraction done. */
  step(work: number): number;
  done(): boolean;
  progress(): number;
  resultJson(): string;
  /** [{"runs": R, "dispatches": D}] per batch made so far (D: its last step's batched dispatches). */
  batchesJson(): string;
}

/** Results of a GPU-vs-CPU comparison, available once ready(). */
export interface GpuCheck extends EmbindObject {
  ready(): boolean;
  /** MatmulCheck: {"cases":[{tA,tB,M,N,K,batch,beta,vec4,max_rel}],"max_rel"}; GradCheck:
   *  {"loss_cpu","loss_gpu","loss_rel","grad_scale","tensors":[{name,max_rel,max_abs_cpu,max_abs_gpu,zero}],
   *   "max_rel","zero_max_over_scale"} with max_rel = max|gpu − cpu| / max|cpu|. */
  resultJson(): string;
}

/** The WGSL matmul alone at one shape (bench/webgpu_bench.mjs). */
export interface GpuMatmulBench extends EmbindObject {
  /** Records `reps` dispatches of C = op(A)·op(B) and submits; time with lnxGpu.idle(). */
  run(reps: number): void;
  /** Whether this shape takes the vec4 path. */
  vec4(): boolean;
}

export interface LnxGpuRuntime {
  /** Resolves when every scheduled readback has landed or failed. */
  settled(): Promise<void>;
  /** Submits what is recorded; resolves when the GPU has finished it (for timing). */
  idle(): Promise<void>;
  /** Set once the device is lost / reported an error (the next engine call throws). */
  lost: string | null;
  error: string | null;
  /** Running totals since the module was created. */
  counters: { dispatches: number; submits: number; reads: number; writes: number; pipelines: number; bindGroups: number };
}

export interface LnxGpuModule extends Omit<LnxModule, 'buildFlavour'> {
  buildFlavour(): 'wasm-st';
  /** A device was given and is not lost. */
  gpuAvailable(): boolean;
  GpuProbeRun: new (configJson: string) => GpuProbeRun;
  /** readbackEvery: read the losses back every this many steps (and at the end of each step() call). */
  GpuTrainRun: new (configJson: string, readbackEvery: number) => GpuTrainRun;
  /** configJsons: TrainRun configs of one shape; readbackEvery as GpuTrainRun's. */
  GpuTrainBatch: new (configJsons: string[], readbackEvery: number) => GpuTrainBatch;
  /** configJson: a phase-diagram config (as ExperimentRun's); maxBatch: the most runs per batch (1: each alone). */
  GpuPhaseDiagram: new (configJson: string, maxBatch: number) => GpuPhaseDiagram;
  GpuMatmulCheck: new () => GpuCheck;
  /** Every op of the backend interface, each optimizer's update and the run statistics, GPU vs CPU. */
  GpuOpCheck: new () => GpuCheck;
  /** configJson: a TrainRun config; its model and seed are used. */
  GpuGradCheck: new (configJson: string) => GpuCheck;
  GpuMatmulBench: new (tA: boolean, tB: boolean, M: number, N: number, K: number) => GpuMatmulBench;
  lnxGpu: LnxGpuRuntime;
}

export interface LnxGpuFactoryOptions extends LnxFactoryOptions {
  /** The GPUDevice the engine records its work on. */
  gpuDevice?: unknown;
}

declare const createLnx: (options?: LnxGpuFactoryOptions) => Promise<LnxGpuModule>;
export default createLnx;
