// backend-choice.ts — which engine runs the page's jobs, and what happens when the GPU fails mid-run.
//
// Order: WebGPU when an adapter exists and the start-up self-test passes (a small matmul
// and one training step against the CPU result inside the same module); else the threaded CPU
// build when the page is cross-origin isolated; else the single-threaded one. `?backend=cpu|webgpu`
// overrides. A software adapter (SwiftShader, llvmpipe: what Chromium offers without a GPU) runs
// WGSL on the CPU about 100× slower than the wasm engine, so it is used only when asked for. A GPU failure during a run (device lost, a WebGPU error: the engine throws
// `Error("lnx: gpu: …")`) falls back to the CPU, with a notice saying so; the worker
// restarts the run there, or continues a grid from the GPU's checkpoints (gpu-grid.ts).
//
// The decisions are pure functions (parseBackendOverride, chooseBackend, judgeSelfTest,
// fallbackAfterGpuError), unit-tested in tests/unit/backend-choice.test.ts. The steps that touch the
// browser (acquireWebGpu, runSelfTest, selectBackend) take what they touch as arguments
// (navigator.gpu, the module loader), so the tests drive them with fakes and the end-to-end test
// (tests/webgpu/) with real headless Chromium.
// Leaves out: loading the CPU modules and posting messages (worker.ts), stepping a job (runner.ts
// runJob, which awaits the GPU module's settled() after each step), drawing the notice (page).

export type Backend = 'webgpu' | 'cpu-mt' | 'cpu-st';
export type BackendOverride = 'cpu' | 'webgpu' | null;

/** What probing WebGPU found. */
export type GpuProbe =
  | { kind: 'skipped' } // not probed (?backend=cpu)
  | { kind: 'unsupported' } // no navigator.gpu
  | { kind: 'no-adapter' }
  | { kind: 'software'; adapter: string } // a CPU-emulated adapter: slower than the CPU engine
  | { kind: 'device-failed'; message: string }
  | { kind: 'self-test-failed'; message: string; report?: SelfTestReport }
  | { kind: 'ready'; adapter: string; report: SelfTestReport };

/** Why this backend: a GpuProbe kind, or the override / forced / failed cases. The page words it
 *  in its own language from this code (lib/engine-line.ts); `reason` is the English sentence. */
export type BackendWhy = GpuProbe['kind'] | 'override-cpu' | 'forced' | 'gpu-failed';

export interface Selection {
  backend: Backend;
  /** One sentence for the page: which path runs and why. */
  reason: string;
  why: BackendWhy;
  /** the adapter's name, or the error message, that goes with `why` ('' when none) */
  detail: string;
  /** ?backend=webgpu was asked for */
  asked: boolean;
}

export interface SelfTestReport {
  passed: boolean;
  /** max over the WGSL matmul cases of max|gpu − cpu| / max|cpu| */
  matmulMaxRel: number;
  /** max over every parameter gradient tensor of one step, same measure */
  gradMaxRel: number;
  /** |loss_gpu − loss_cpu| / |loss_cpu| */
  lossRel: number;
  tolerance: number;
}

/** Self-test bound. Looser than the test suite's 1e-4: real GPUs may fuse and reorder float ops. */
export const SELF_TEST_TOLERANCE = 1e-3;

/** The model of the self-test's training step: small enough to take well under a second anywhere. */
export const SELF_TEST_CONFIG = {
  placement: 'pre',
  attention: 'causal',
  layers: 1,
  d: 16,
  d_ff: 64,
  vocab: 32,
  seq: 8,
  batch: 2,
  seed: 1,
} as const;

/** `?backend=cpu|webgpu` from a location.search string; anything else is no override. */
export function parseBackendOverride(search: string): BackendOverride {
  const v = new URLSearchParams(search).get('backend');
  return v === 'cpu' || v === 'webgpu' ? v : null;
}

export function cpuBackend(crossOriginIsolated: boolean): Backend {
  return crossOriginIsolated ? 'cpu-mt' : 'cpu-st';
}

/** A module of one function using f32x4.relaxed_madd (the standard opcode 0xfd 0x85 0x02):
 *  WebAssembly.validate of it says whether this browser runs the FMA flavours (lnx-st-fma,
 *  lnx-mt-fma). Chrome 114+, Firefox 145+; not Safari, and Node 20 only with a flag. */
export const RELAXED_SIMD_PROBE: Uint8Array<ArrayBuffer> = (() => {
  const v128 = [0xfd, 0x0c, ...new Array<number>(16).fill(0)];
  const body = [0x00, ...v128, ...v128, ...v128, 0xfd, 0x85, 0x02, 0x0b];
  return Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 5, 1, 0x60, 0, 1, 0x7b, 3, 2, 1, 0, 10, body.length + 2, 1, body.length, ...body]);
})();

/** Whether this browser (or worker) runs the FMA flavours: RELAXED_SIMD_PROBE validates. */
export function hasRelaxedSimd(): boolean {
  try {
    return WebAssembly.validate(RELAXED_SIMD_PROBE);
  } catch {
    return false;
  }
}

/** Which glue the CPU engine loads (public/wasm/lnx-<glue>.mjs): threaded when cross-origin
 *  isolated, and the FMA flavour of it when the browser has relaxed SIMD; `fallback`, the plain
 *  flavour, when the FMA one fails to load. */
export type CpuGlue = 'st' | 'mt' | 'st-fma' | 'mt-fma';
export function cpuGlue(crossOriginIsolated: boolean, relaxedSimd: boolean): { glue: CpuGlue; fallback: 'st' | 'mt' | null } {
  const plain = crossOriginIsolated ? 'mt' : 'st';
  return relaxedSimd ? { glue: `${plain}-fma`, fallback: plain } : { glue: plain, fallback: null };
}

const CPU_WORDS: Record<Backend, string> = {
  'cpu-mt': 'the threaded CPU engine (the page is cross-origin isolated)',
  'cpu-st': 'the single-threaded CPU engine (the page is not cross-origin isolated, so no threads)',
  webgpu: 'WebGPU',
};

function gpuProblem(p: GpuProbe): string {
  switch (p.kind) {
    case 'skipped':
      return 'WebGPU was not tried';
    case 'unsupported':
      return 'this browser has no WebGPU';
    case 'no-adapter':
      return 'no WebGPU adapter is available';
    case 'software':
      return `the only WebGPU adapter (${p.adapter}) is a software one, slower than the CPU engine`;
    case 'device-failed':
      return `the WebGPU device could not be created (${p.message})`;
    case 'self-test-failed':
      return `the WebGPU self-test failed (${p.message})`;
    case 'ready':
      return '';
  }
}

/** The backend for this page load. */
export function chooseBackend(probe: GpuProbe, crossOriginIsolated: boolean, override: BackendOverride): Selection {
  const cpu = cpuBackend(crossOriginIsolated);
  const asked = override === 'webgpu';
  if (override === 'cpu') return { backend: cpu, why: 'override-cpu', detail: '', asked, reason: `?backend=cpu: running on ${CPU_WORDS[cpu]}.` };
  if (probe.kind === 'ready')
    return {
      backend: 'webgpu',
      why: 'ready',
      detail: probe.adapter,
      asked,
      reason:
        `${asked ? '?backend=webgpu: running' : 'Running'} on WebGPU (${probe.adapter}): its start-up ` +
        `self-test matched the CPU (max relative difference ${fmt(Math.max(probe.report.matmulMaxRel, probe.report.gradMaxRel))}).`,
    };
  if (asked && probe.kind === 'self-test-failed')
    return {
      backend: 'webgpu',
      why: 'forced',
      detail: probe.message,
      asked,
      reason: `?backend=webgpu: running on WebGPU although ${gpuProblem(probe)}.`,
    };
  const why = gpuProblem(probe);
  const detail = probe.kind === 'software' ? probe.adapter : 'message' in probe ? probe.message : '';
  return {
    backend: cpu,
    why: probe.kind,
    detail,
    asked,
    reason: `${asked ? `?backend=webgpu was asked for, but ${why}` : cap(why)}; running on ${CPU_WORDS[cpu]}.`,
  };
}

/** Whether to look for a GPU at all. */
export function shouldProbeGpu(override: BackendOverride): boolean {
  return override !== 'cpu';
}

/** Pass/fail of the self-test from the JSON of GpuMatmulCheck and GpuGradCheck. */
export function judgeSelfTest(matmulJson: string, gradJson: string, tolerance = SELF_TEST_TOLERANCE): SelfTestReport {
  const mm = JSON.parse(matmulJson) as { max_rel: number | null };
  const gr = JSON.parse(gradJson) as { max_rel: number | null; loss_rel: number | null };
  // The engine writes non-finite numbers as null: treat them as failures.
  const num = (x: number | null) => (typeof x === 'number' && Number.isFinite(x) ? x : Infinity);
  const r = { matmulMaxRel: num(mm.max_rel), gradMaxRel: num(gr.max_rel), lossRel: num(gr.loss_rel), tolerance };
  return { ...r, passed: r.matmulMaxRel <= tolerance && r.gradMaxRel <= tolerance && r.lossRel <= tolerance };
}

/** The experiments the WebGPU engine runs itself (worker.ts gpuJobEngine gives each its class of the
 *  lnx-gpu module): phase-diagram, whose runs are whole training runs, batched there by shape
 *  (wasm/gpu/gpu_phase_diagram.h) with the CPU experiment's rule and document. */
export const GPU_EXPERIMENTS = ['phase-diagram'] as const;
export type GpuExperiment = (typeof GPU_EXPERIMENTS)[number];
export const isGpuExperiment = (name: unknown): name is GpuExperiment => (GPU_EXPERIMENTS as readonly unknown[]).includes(name);

/** Why a job goes to the CPU engine on a page that runs on WebGPU, or null when WebGPU runs it: an
 *  experiment other than GPU_EXPERIMENTS (hundreds of small passes whose results are read every
 *  pass: experiments/experiment.h), or a run on the article's text (data = text: its held-out loss is
 *  computed on the CPU engine only, wasm/train_run.h). The worker runs such a job on the CPU build;
 *  Figure 4's form says so under its data select (lib/settings.ts GRID). */
export function cpuOnlyJob(job: { type: string; name?: unknown; config?: unknown }): 'experiment' | 'text' | null {
  if (job.type === 'experiment' && !isGpuExperiment(job.name)) return 'experiment';
  const c = job.config;
  return (job.type === 'grid' || job.type === 'experiment') && typeof c === 'object' && c !== null && (c as { data?: unknown }).data === 'text' ? 'text' : null;
}

/** True for the errors that mean "the GPU path is broken": device lost, WebGPU errors. */
export function isGpuError(e: unknown): boolean {
  const msg = e instanceof Error ? e.message : typeof e === 'string' ? e : '';
  return msg.startsWith('lnx: gpu:');
}

/** After an error during a WebGPU run: the CPU backend to restart on and the notice, or null when
 *  the error is not the GPU's (an invalid config fails the same way on every backend). */
export function fallbackAfterGpuError(e: unknown, crossOriginIsolated: boolean): (Selection & { restart: true }) | null {
  if (!isGpuError(e)) return null;
  const cpu = cpuBackend(crossOriginIsolated);
  const detail = (e instanceof Error ? e.message : String(e)).replace(/^lnx: gpu: /, '');
  return {
    backend: cpu,
    restart: true,
    why: 'gpu-failed',
    detail,
    asked: false,
    reason: `The GPU failed during the run (${detail}); the job went on on ${CPU_WORDS[cpu]}.`,
  };
}

// ---------------------------------------------------------------- browser steps (injectable)

/** The parts of navigator.gpu / GPUAdapter this module uses. */
export interface GpuLike {
  requestAdapter(opts?: { powerPreference?: 'high-performance' | 'low-power' }): Promise<AdapterLike | null>;
}
export interface AdapterLike {
  info?: { vendor?: string; architecture?: string; description?: string; isFallbackAdapter?: boolean };
  /** Older Chromium exposed it on the adapter. */
  isFallbackAdapter?: boolean;
  limits: { maxBufferSize: number; maxStorageBufferBindingSize: number };
  requestDevice(desc?: { requiredLimits?: Record<string, number> }): Promise<unknown>;
}

/** The WebGPU classes of the lnx-gpu module (public/wasm/lnx-gpu.d.ts). */
export interface GpuModule {
  GpuMatmulCheck: new () => { ready(): boolean; resultJson(): string; delete(): void };
  GpuGradCheck: new (configJson: string) => { ready(): boolean; resultJson(): string; delete(): void };
  lnxGpu: { settled(): Promise<void> };
}

export type Acquired<Device> =
  | { device: Device; adapter: string; software: boolean; /** the adapter itself (its info and features) */ raw: AdapterLike }
  | Extract<GpuProbe, { kind: 'unsupported' | 'no-adapter' | 'device-failed' }>;

/** A fallback (CPU-emulated) adapter: flagged as such, or a known software rasteriser by name. */
export function isSoftwareAdapter(a: AdapterLike): boolean {
  const i = a.info ?? {};
  if (i.isFallbackAdapter || a.isFallbackAdapter) return true;
  return /swiftshader|llvmpipe|lavapipe|software/i.test(`${i.vendor ?? ''} ${i.architecture ?? ''} ${i.description ?? ''}`);
}

/** An adapter and a device with the adapter's largest buffer limits (the default 128 MiB binding
 *  limit is too small for the largest probe models; the engine checks sizes against the device). */
export async function acquireWebGpu<Device = unknown>(gpu: GpuLike | undefined): Promise<Acquired<Device>> {
  if (!gpu) return { kind: 'unsupported' };
  let adapter: AdapterLike | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch {
    adapter = null;
  }
  if (!adapter) return { kind: 'no-adapter' };
  try {
    const device = (await adapter.requestDevice({
      requiredLimits: {
        maxBufferSize: adapter.limits.maxBufferSize,
        maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
      },
    })) as Device;
    const i = adapter.info ?? {};
    const name = [i.vendor, i.architecture || i.description].filter(Boolean).join(' ') || 'unknown adapter';
    return { device, adapter: name, software: isSoftwareAdapter(adapter), raw: adapter };
  } catch (e) {
    return { kind: 'device-failed', message: e instanceof Error ? e.message : String(e) };
  }
}

/** Runs the self-test in a module created with the device; never throws. */
export async function runSelfTest(m: GpuModule, tolerance = SELF_TEST_TOLERANCE): Promise<GpuProbe | SelfTestReport> {
  let mm: InstanceType<GpuModule['GpuMatmulCheck']> | null = null;
  let gc: InstanceType<GpuModule['GpuGradCheck']> | null = null;
  try {
    mm = new m.GpuMatmulCheck();
    gc = new m.GpuGradCheck(JSON.stringify(SELF_TEST_CONFIG));
    await m.lnxGpu.settled();
    if (!mm.ready() || !gc.ready()) return { kind: 'self-test-failed', message: 'its results never came back' };
    const report = judgeSelfTest(mm.resultJson(), gc.resultJson(), tolerance);
    return report.passed
      ? report
      : {
          kind: 'self-test-failed',
          report,
          message: `GPU and CPU differ by ${fmt(Math.max(report.matmulMaxRel, report.gradMaxRel, report.lossRel))} > ${tolerance}`,
        };
  } catch (e) {
    return { kind: 'self-test-failed', message: e instanceof Error ? e.message : String(e) };
  } finally {
    mm?.delete();
    gc?.delete();
  }
}

export interface SelectOptions<Device, M extends GpuModule> {
  gpu: GpuLike | undefined;
  crossOriginIsolated: boolean;
  /** location.search */
  search: string;
  /** Creates the lnx-gpu module bound to the device: createLnx({ gpuDevice: device }). */
  loadGpuModule(device: Device): Promise<M>;
}

export interface Selected<Device, M> extends Selection {
  probe: GpuProbe;
  /** Set when backend === 'webgpu'. */
  gpu?: { device: Device; module: M };
}

/** The whole start-up decision: override, adapter, device, module, self-test, choice. A software
 *  adapter is not tested (nor used) unless ?backend=webgpu asks for WebGPU. */
export async function selectBackend<Device, M extends GpuModule>(o: SelectOptions<Device, M>): Promise<Selected<Device, M>> {
  const override = parseBackendOverride(o.search);
  let probe: GpuProbe = { kind: 'skipped' };
  let gpu: { device: Device; module: M } | undefined;
  if (shouldProbeGpu(override)) {
    const acquired = await acquireWebGpu<Device>(o.gpu);
    if ('kind' in acquired) probe = acquired;
    else if (acquired.software && override !== 'webgpu') {
      probe = { kind: 'software', adapter: acquired.adapter };
      (acquired.device as { destroy?: () => void }).destroy?.();
    } else {
      try {
        const module = await o.loadGpuModule(acquired.device);
        const r = await runSelfTest(module);
        probe = 'kind' in r ? r : { kind: 'ready', adapter: acquired.adapter, report: r };
        gpu = { device: acquired.device, module };
      } catch (e) {
        probe = { kind: 'device-failed', message: e instanceof Error ? e.message : String(e) };
      }
    }
  }
  const s = chooseBackend(probe, o.crossOriginIsolated, override);
  return s.backend === 'webgpu' ? { ...s, probe, gpu } : { ...s, probe };
}

function fmt(x: number): string {
  return Number.isFinite(x) ? x.toExponential(1) : String(x);
}
function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
