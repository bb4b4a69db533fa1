/// <reference lib="webworker" />
// worker.ts — the engine's module worker. Picks the backend (backend-choice.ts: WebGPU when an adapter
// passes the start-up self-test, else the threaded CPU build when the page is cross-origin isolated,
// else the single-threaded one; ?backend=cpu|webgpu overrides), loads the Emscripten glue from
// public/wasm/ at run time (never bundled: vite.config.ts says why), then runs jobs one at a time
// (runner.ts). On WebGPU, the probe is GpuProbeRun and the grid gpu-grid.ts. When the GPU fails
// during a job (device lost, a WebGPU error), the worker loads the CPU build, tells the page why
// ('backend' reply) and reruns the job there: a grid continues from what the GPU had computed
// (gpu-grid.ts handoff, continueGrid), a probe from the jobs whose statistics had come in
// (ProbeRun.continueFrom), an experiment from its start. The phase diagram runs on WebGPU batched
// (GpuPhaseDiagram); other experiments and grids on the article's text run on the CPU build on any
// page (backend-choice.ts cpuOnlyJob). The CPU build is the FMA flavour
// where the browser validates relaxed SIMD (backend-choice.ts cpuGlue); each job runs with fused
// multiply-adds unless it asks for the exact arithmetic (protocol.ts `exact`). Before its first job a
// CPU module gets the article's texts (data/text/article.<lang>.txt) for runs on real text (docs/engine.md,
// "Real text"); a text that fails to load is left out, and a run that needs it is refused by the engine,
// which names it. Messages: protocol.ts. The page never imports this file; client.ts creates it.
import type { LnxGpuModule } from '../../../public/wasm/lnx-gpu.d.ts';
import {
  cpuGlue,
  cpuOnlyJob,
  fallbackAfterGpuError,
  isGpuExperiment,
  type GpuExperiment,
  isGpuError,
  hasRelaxedSimd,
  selectBackend,
  type CpuGlue,
  type GpuLike,
  type Selection,
} from './backend-choice';
import { continueGrid, GpuGrid, type GridHandoff } from './gpu-grid';
import { heapInUse, type HeapModule } from './heap';
import type { CreateLnx, LnxModule } from './lnx-module';
import type { ConfigCheck, Reply, Request } from './protocol';
import { errorMessage, runJob, type JobEngine } from './runner';

declare const self: DedicatedWorkerGlobalScope;
const post = (r: Reply) => self.postMessage(r);

type Glue = CpuGlue | 'gpu';
const glueUrl = (flavour: Glue) => new URL(`${import.meta.env.BASE_URL}wasm/lnx-${flavour}.mjs`, self.location.origin).href;
const cpuFlavour = cpuGlue(self.crossOriginIsolated, hasRelaxedSimd());

async function loadGlue<M>(flavour: Glue, extra: Record<string, unknown> = {}): Promise<M> {
  const url = glueUrl(flavour);
  try {
    // Do not pass locateFile: the ES6 glue finds its .wasm / .worker.js next to itself.
    const create = (await import(/* @vite-ignore */ url)).default as CreateLnx;
    return (await create({ mainScriptUrlOrBlob: url, ...extra })) as M;
  } catch (e) {
    throw new Error(`could not load ${url}: ${errorMessage(e)}`);
  }
}

/** The languages of the article's texts (scripts/gen-corpus.mjs writes one file each). */
const TEXT_LANGS = ['en', 'zh'] as const;
const texts = new WeakMap<object, Promise<void>>();
/** Hands module `m` the article's texts, once (the WebGPU module runs no text: it has no setTextCorpus). */
function ensureTexts(m: LnxModule | LnxGpuModule): Promise<void> {
  if (!('setTextCorpus' in m)) return Promise.resolve();
  if (!texts.has(m))
    texts.set(
      m,
      Promise.all(
        TEXT_LANGS.map(async (lang) => {
          try {
            const r = await fetch(new URL(`${import.meta.env.BASE_URL}data/text/article.${lang}.txt`, self.location.origin));
            if (r.ok) m.setTextCorpus(lang, new Uint8Array(await r.arrayBuffer()));
          } catch {
            // left out: a run on this text says it is not loaded
          }
        }),
      ).then(() => undefined),
    );
  return texts.get(m)!;
}

let cpuModule: Promise<LnxModule> | null = null;
const loadCpu = () =>
  (cpuModule ??= loadGlue<LnxModule>(cpuFlavour.glue).catch((e) => {
    if (!cpuFlavour.fallback) throw e;
    return loadGlue<LnxModule>(cpuFlavour.fallback); // an FMA flavour that failed to load: the plain one
  }));

/** The class of the lnx-gpu module that runs each of backend-choice.ts GPU_EXPERIMENTS. */
const GPU_EXPERIMENT_RUNS: Record<GpuExperiment, (gm: LnxGpuModule, json: string) => InstanceType<NonNullable<JobEngine['ExperimentRun']>>> = {
  // its runs of one shape as one batch, at most as many as the engine keeps on the device at once
  'phase-diagram': (gm, json) => new gm.GpuPhaseDiagram(json, 1e6),
};

/** The WebGPU module seen as a job engine: GPU probe, GPU grid, GPU_EXPERIMENTS, and the readback wait. */
function gpuJobEngine(gm: LnxGpuModule): JobEngine {
  return {
    ProbeRun: gm.GpuProbeRun,
    ExperimentRun: class {
      constructor(name: string, json: string) {
        if (!isGpuExperiment(name)) throw new Error(`lnx: the WebGPU engine does not run the experiment "${name}"`);
        return GPU_EXPERIMENT_RUNS[name](gm, json);
      }
    } as unknown as JobEngine['ExperimentRun'],
    GridRun: class {
      constructor(json: string) {
        return new GpuGrid(gm, json);
      }
    } as unknown as JobEngine['GridRun'],
    settled: () => gm.lnxGpu.settled(),
  };
}

/** A CPU probe takes the GPU's finished jobs; should the hand-off not fit (it comes from the same
 *  engine, so only a bug could do that), the probe runs from its first job instead. */
function continueProbe(probe: InstanceType<JobEngine['ProbeRun']>, handoff: string) {
  try {
    probe.continueFrom?.(handoff, 'webgpu');
  } catch {
    // restart: nothing taken over
  }
}

interface Active {
  engine: JobEngine;
  module: LnxModule | LnxGpuModule;
  selection: Selection;
  device?: { destroy(): void };
}

const describe = (a: Active) => ({
  backend: a.selection.backend,
  reason: a.selection.reason,
  why: a.selection.why,
  detail: a.selection.detail,
  asked: a.selection.asked,
  flavour: a.module.buildFlavour(),
  threads: a.module.threads(),
});

let search: string | null = null;
let initDone!: () => void;
const init = new Promise<void>((r) => (initDone = r));

let active: Promise<Active> = (async () => {
  await init;
  const sel = await selectBackend<{ destroy(): void }, LnxGpuModule>({
    gpu: (self.navigator as unknown as { gpu?: GpuLike }).gpu,
    crossOriginIsolated: self.crossOriginIsolated,
    search: search ?? '',
    loadGpuModule: (device) => loadGlue<LnxGpuModule>('gpu', { gpuDevice: device }),
  });
  if (sel.backend === 'webgpu' && sel.gpu) return { engine: gpuJobEngine(sel.gpu.module), module: sel.gpu.module, selection: sel, device: sel.gpu.device };
  const m = await loadCpu();
  return { engine: m, module: m, selection: sel };
})();

active.then(
  (a) => post({ type: 'ready', version: a.module.engineVersion(), crossOriginIsolated: self.crossOriginIsolated, ...describe(a) }),
  (e) => post({ type: 'load-error', message: errorMessage(e) }),
);

const cancelled = new Set<number>();
let paused = false;
let wake: (() => void) | null = null;
let queue: Promise<void> = Promise.resolve();

const yieldToEvents = () => new Promise<void>((r) => setTimeout(r, 0));
/** Idle while paused (tab hidden, or the reader paused), unless `stop` (the job was cancelled:
 *  a paused run can be cancelled without resuming it first). */
const whilePaused = async (stop: () => boolean = () => false) => {
  while (paused && !stop()) await new Promise<void>((r) => (wake = r));
};

self.onmessage = (ev: MessageEvent<Request>) => {
  const req = ev.data;
  switch (req.type) {
    case 'init':
      if (search === null) {
        search = typeof req.search === 'string' ? req.search : '';
        initDone();
      }
      return;
    case 'lose-gpu':
      active.then(
        (a) => a.device?.destroy(),
        () => {},
      );
      return;
    case 'memory':
      active.then(
        (a) => post({ type: 'memory', ...heapInUse(a.module as unknown as HeapModule) }),
        () => {},
      );
      return;
    case 'check':
      active.then(
        (a) => {
          let check: ConfigCheck;
          try {
            check = JSON.parse(a.module.checkConfigJson(req.kind, JSON.stringify(req.config ?? {}))) as ConfigCheck;
          } catch (e) {
            check = { ok: false, message: errorMessage(e) };
          }
          post({ type: 'checked', id: req.id, check });
        },
        (e) => post({ type: 'checked', id: req.id, check: { ok: null, message: errorMessage(e) } }),
      );
      return;
    case 'cancel':
      cancelled.add(req.id);
      wake?.();
      wake = null;
      return;
    case 'pause':
      paused = true;
      return;
    case 'resume':
      paused = false;
      wake?.();
      wake = null;
      return;
    case 'probe':
    case 'grid':
    case 'experiment':
      queue = queue.then(async () => {
        if (cancelled.has(req.id)) return post({ type: 'cancelled', id: req.id });
        let a: Active;
        try {
          a = await active;
          // The WebGPU backend runs neither experiments (but GPU_EXPERIMENTS) nor runs on the article's
          // text (backend-choice.ts cpuOnlyJob): they run on the CPU build, whose name their document carries.
          if (cpuOnlyJob(req) && a.selection.backend === 'webgpu') {
            const m = await loadCpu();
            a = { engine: m, module: m, selection: a.selection };
          }
        } catch (e) {
          return post({ type: 'error', id: req.id, message: errorMessage(e) });
        }
        const hooks = {
          post,
          cancelled: () => cancelled.has(req.id),
          whilePaused: () => whilePaused(() => cancelled.has(req.id)),
          yieldToEvents,
          now: () => performance.now(),
        };
        // Fused multiply-adds for this job where the module has them (the FMA flavour), unless the
        // page asked for the deterministic arithmetic (a run that reproduces a precomputed document).
        const fma = (m: LnxModule | LnxGpuModule) => m.setGemmFma(req.exact !== true);
        fma(a.module);
        await ensureTexts(a.module);
        let handoff: GridHandoff | null = null;
        let probeHandoff: string | null = null;
        try {
          await runJob(
            a.engine,
            req,
            { ...hooks, handoff: (x) => (handoff = x), probeHandoff: (x) => (probeHandoff = x) },
            (e) => a.selection.backend === 'webgpu' && isGpuError(e),
          );
        } catch (e) {
          // The GPU failed mid-job: switch every later job to the CPU and say so. A grid continues
          // there from what the GPU had computed (each live run from its last checkpoint), a probe
          // from its first job whose statistics had not come in.
          const fb = fallbackAfterGpuError(e, self.crossOriginIsolated)!;
          let m: LnxModule;
          try {
            m = await loadCpu();
          } catch (le) {
            post({ type: 'error', id: req.id, message: `${errorMessage(e)}; and the CPU engine failed to load: ${errorMessage(le)}` });
            return;
          }
          fma(m);
          await ensureTexts(m);
          const next: Active = { engine: m, module: m, selection: fb };
          active = Promise.resolve(next);
          post({ type: 'backend', ...describe(next) });
          const h = handoff as GridHandoff | null;
          const ph = probeHandoff as string | null;
          await runJob(m, req, {
            ...hooks,
            ...(h ? { prepareGrid: (grid) => continueGrid(grid, h) } : {}),
            ...(ph ? { prepareProbe: (probe) => continueProbe(probe, ph) } : {}),
          });
        }
        cancelled.delete(req.id);
      });
      return;
  }
};
