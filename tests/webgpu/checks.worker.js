// checks.worker.js — the checks of `npm run test:webgpu`, run inside a module worker of headless
// Chromium (SwiftShader WebGPU). Each check compares the WebGPU path with the CPU path of the same
// engine build (public/wasm/lnx-gpu.mjs holds both) or exercises the backend selection and the
// fallbacks of web/src/engine/backend-choice.ts, and answers { pass, detail }.
// Tolerance: 1e-4 relative everywhere (the WebGPU path's acceptance bound, docs/webgpu.md); how
// "relative" is measured is written next to each check. Leaves out: timing
// (bench/webgpu_bench.mjs), the page's UI (tests/webgpu/run.mjs drives the page, whose worker steps
// jobs with web/src/engine/runner.ts runJob).
import * as backend from '../../web/src/engine/backend-choice.ts';
import { SMALL, TOL, cpuTrain, driveGpu, e1, engineChecks, relMax } from './engine-checks.js';

const GPU_GLUE = new URL('../../public/wasm/lnx-gpu.mjs', import.meta.url).href;
const CPU_GLUE = {
  'cpu-mt': new URL('../../public/wasm/lnx-mt.mjs', import.meta.url).href,
  'cpu-st': new URL('../../public/wasm/lnx-st.mjs', import.meta.url).href,
};

async function gpuModule(device) {
  const create = (await import(GPU_GLUE)).default;
  return create({ gpuDevice: device });
}
async function cpuModule(kind) {
  const create = (await import(CPU_GLUE[kind])).default;
  return create({ mainScriptUrlOrBlob: CPU_GLUE[kind] });
}

let shared = null; // { device, module, adapter }: one device for the comparison checks
async function gpu() {
  if (shared) return shared;
  const a = await backend.acquireWebGpu(navigator.gpu);
  if ('kind' in a) throw new Error(`no WebGPU device: ${a.kind}`);
  shared = { device: a.device, adapter: a.adapter, module: await gpuModule(a.device) };
  return shared;
}

/** The page's backend selection in this worker, for a URL query `search` (and a stand-in for navigator.gpu). */
const select = (search, gpu = navigator.gpu) => backend.selectBackend({ gpu, crossOriginIsolated: self.crossOriginIsolated, search, loadGpuModule: gpuModule });
/** The CPU backend the selection falls back to here: threaded where the page is cross-origin isolated. */
const cpuBackend = () => (self.crossOriginIsolated ? 'cpu-mt' : 'cpu-st');

const CHECKS = {
  ...engineChecks(gpu),

  // SwiftShader is a software adapter: by default the CPU engine is chosen (it is ~100× faster).
  async 'selection: a software adapter is not used by default'() {
    const s = await select('');
    const want = cpuBackend();
    return { pass: s.backend === want && s.probe.kind === 'software' && !s.gpu, detail: `${s.backend}: ${s.reason}` };
  },

  async 'selection: ?backend=webgpu self-tests and picks WebGPU'() {
    const s = await select('?backend=webgpu');
    const r = s.probe.kind === 'ready' ? s.probe.report : null;
    const pass = s.backend === 'webgpu' && !!r?.passed && !!s.gpu;
    return {
      pass,
      detail: `${s.backend}: ${s.reason}${r ? ` (matmul ${e1(r.matmulMaxRel)}, grads ${e1(r.gradMaxRel)}, loss ${e1(r.lossRel)})` : ` probe ${JSON.stringify(s.probe)}`}`,
    };
  },

  async 'selection: ?backend=cpu skips the GPU'() {
    let touched = false;
    const s = await select('?backend=cpu', {
      requestAdapter: async () => {
        touched = true;
        return null;
      },
    });
    const want = cpuBackend();
    return { pass: s.backend === want && !touched && s.probe.kind === 'skipped', detail: `${s.backend}: ${s.reason}` };
  },

  // Device loss mid-run (device.destroy()): the GPU run throws "lnx: gpu: …", the fallback restarts
  // the run on the CPU module the page would use and says so; the result is the CPU's.
  async 'device lost mid-run: falls back to the CPU and restarts'() {
    const a = await backend.acquireWebGpu(navigator.gpu);
    if ('kind' in a) return { pass: false, detail: a.kind };
    const m = await gpuModule(a.device);
    const cfg = { ...SMALL, placement: 'pre', warmup: 2, lr: 1e-3, steps: 12, seed: 4 };
    const run = new m.GpuTrainRun(JSON.stringify(cfg), 2);
    let chunks = 0,
      error = null;
    try {
      await driveGpu(
        run,
        () => run.status() !== 'running',
        () => m.lnxGpu.settled(),
        {
          chunk: 2,
          onChunk: () => {
            if (++chunks === 2) a.device.destroy();
          },
        },
      );
    } catch (e) {
      error = e;
    }
    run.delete();
    const fb = backend.fallbackAfterGpuError(error, self.crossOriginIsolated);
    if (!fb) return { pass: false, detail: `no GPU error surfaced (${error})` };
    const cpu = await cpuModule(fb.backend);
    const result = await cpuTrain(cpu, cfg);
    const reference = await cpuTrain((await gpu()).module, cfg);
    const lossRel = relMax(result.loss, reference.loss);
    const pass =
      /lost/i.test(fb.reason) && result.status === 'ok' && result.loss.length === 12 && lossRel <= TOL && !m.gpuAvailable() && !result.engine.backend;
    return {
      pass,
      detail: `after ${chunks} chunks: "${error.message.slice(0, 80)}" → ${fb.backend}, notice: "${fb.reason.slice(0, 90)}…"; restarted run ok, loss vs CPU ${e1(lossRel)}`,
    };
  },

  // Run in a browser without --enable-unsafe-webgpu (run.mjs): navigator.gpu exists, no adapter.
  async 'no adapter: selection falls back to the CPU'() {
    const s = await select('?backend=webgpu');
    const want = cpuBackend();
    const cpu = await cpuModule(s.backend);
    const r = await cpuTrain(cpu, { ...SMALL, layers: 1, steps: 3 });
    const pass = s.backend === want && s.probe.kind === 'no-adapter' && /no WebGPU adapter/.test(s.reason) && r.status === 'ok';
    return { pass, detail: `${s.backend}: ${s.reason} (a CPU run then completed: ${r.status})` };
  },
};

self.onmessage = async (ev) => {
  const { id, name } = ev.data;
  let result;
  try {
    if (name === '__list') result = Object.keys(CHECKS);
    else if (!CHECKS[name]) result = { pass: false, detail: `unknown check ${name}` };
    else result = await CHECKS[name]();
  } catch (e) {
    result = { pass: false, detail: `threw: ${e && e.stack ? e.stack.split('\n').slice(0, 4).join(' | ') : e}` };
  }
  self.postMessage({ id, result });
};
