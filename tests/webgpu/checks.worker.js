// checks.worker.js — the checks of `npm run test:webgpu`, run inside a module worker of headless
// Chromium (SwiftShader WebGPU). Each check compares the WebGPU path with the CPU path of the same
// engine build (public/wasm/lnx-gpu.mjs holds both) or exercises the backend selection and the
// fallbacks of web/src/engine/backend-choice.ts, and answers { pass, detail }.
// Tolerance: 1e-4 relative everywhere (the WebGPU path's acceptance bound, docs/webgpu.md); how
// "relative" is measured is written next to each check. Leaves out: timing
// (bench/webgpu_bench.mjs), the page's UI (tests/webgpu/run.mjs drives the page, whose worker steps
// jobs with web/src/engine/runner.ts runJob).
import * as backend from '../../web/src/engine/backend-choice.ts';

const TOL = 1e-4;
const GPU_GLUE = new URL('../../public/wasm/lnx-gpu.mjs', import.meta.url).href;
const CPU_GLUE = {
  'cpu-mt': new URL('../../public/wasm/lnx-mt.mjs', import.meta.url).href,
  'cpu-st': new URL('../../public/wasm/lnx-st.mjs', import.meta.url).href,
};
const SMALL = { layers: 2, d: 64, d_ff: 128, vocab: 64, seq: 16, batch: 4 }; // the comparison model of docs/webgpu.md

/** Step a synchronous GPU run a chunk at a time, awaiting the readbacks (`settled`) after each
 *  chunk, until `done()`; `onChunk` runs after each chunk (a check can destroy the device there). */
async function driveGpu(run, done, settled, { chunk = 8, onChunk } = {}) {
  while (!done()) {
    const r = run.step(chunk);
    await settled();
    onChunk?.(r);
  }
}

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

const e1 = (x) => (typeof x === 'number' ? x.toExponential(1) : String(x));
const relMax = (got, ref) => Math.max(0, ...got.map((g, i) => Math.abs(g - ref[i]) / Math.abs(ref[i])));

async function cpuTrain(m, cfg) {
  const run = new m.TrainRun(JSON.stringify(cfg));
  while (run.status() === 'running') run.step(10);
  const r = JSON.parse(run.resultJson(0));
  run.delete();
  return r;
}
async function gpuTrain(m, cfg, readbackEvery = 5) {
  const run = new m.GpuTrainRun(JSON.stringify(cfg), readbackEvery);
  try {
    await driveGpu(run, () => run.status() !== 'running', () => m.lnxGpu.settled(), { chunk: 4 });
    return JSON.parse(run.resultJson(0));
  } finally {
    run.delete();
  }
}

// Every number of a probe document against the CPU one. Means and scalars: |gpu − cpu| / |cpu|.
// Standard deviations over seeds: |gpu − cpu| / |mean| (a std is a difference of nearly equal
// numbers, so its own relative error overstates the disagreement; the mean sets its scale).
function compareProbe(cpu, got) {
  let worstMean = 0, worstStd = 0, count = 0;
  const where = [];
  const walk = (a, b, path, parent) => {
    if (typeof a === 'number') {
      count++;
      const isStd = path.endsWith('.std') || /\.std\.\d+$/.test(path);
      let e;
      if (isStd) {
        const idx = path.match(/\.(\d+)$/);
        const mean = idx ? parent.mean[Number(idx[1])] : parent.mean;
        e = Math.abs(a - b) / Math.abs(mean);
        worstStd = Math.max(worstStd, e);
      } else {
        e = a === b ? 0 : Math.abs(a - b) / Math.abs(a);
        worstMean = Math.max(worstMean, e);
      }
      if (!(e <= TOL)) where.push(`${path}: ${a} vs ${b}`);
    } else if (Array.isArray(a)) {
      if (!Array.isArray(b) || a.length !== b.length) where.push(`${path}: shape`);
      else a.forEach((x, i) => walk(x, b[i], `${path}.${i}`, parent));
    } else if (a && typeof a === 'object') {
      for (const k of Object.keys(a)) if (k !== 'engine') walk(a[k], b?.[k], `${path}.${k}`, a);
    } else if (a !== b) where.push(`${path}: ${a} vs ${b}`);
  };
  walk(cpu, got, '', null);
  return { worstMean, worstStd, count, where };
}

const CHECKS = {
  async 'WebGPU adapter (SwiftShader) and device'() {
    const { adapter, device } = await gpu();
    return { pass: true, detail: `${adapter}; maxStorageBufferBindingSize ${device.limits.maxStorageBufferBindingSize >> 20} MiB` };
  },

  // SwiftShader is a software adapter: by default the CPU engine is chosen (it is ~100× faster).
  async 'selection: a software adapter is not used by default'() {
    const s = await backend.selectBackend({
      gpu: navigator.gpu, crossOriginIsolated: self.crossOriginIsolated, search: '', loadGpuModule: gpuModule,
    });
    const want = self.crossOriginIsolated ? 'cpu-mt' : 'cpu-st';
    return { pass: s.backend === want && s.probe.kind === 'software' && !s.gpu, detail: `${s.backend}: ${s.reason}` };
  },

  async 'selection: ?backend=webgpu self-tests and picks WebGPU'() {
    const s = await backend.selectBackend({
      gpu: navigator.gpu, crossOriginIsolated: self.crossOriginIsolated, search: '?backend=webgpu', loadGpuModule: gpuModule,
    });
    const r = s.probe.kind === 'ready' ? s.probe.report : null;
    const pass = s.backend === 'webgpu' && !!r?.passed && !!s.gpu;
    return { pass, detail: `${s.backend}: ${s.reason}${r ? ` (matmul ${e1(r.matmulMaxRel)}, grads ${e1(r.gradMaxRel)}, loss ${e1(r.lossRel)})` : ` probe ${JSON.stringify(s.probe)}`}` };
  },

  async 'selection: ?backend=cpu skips the GPU'() {
    let touched = false;
    const s = await backend.selectBackend({
      gpu: { requestAdapter: async () => { touched = true; return null; } },
      crossOriginIsolated: self.crossOriginIsolated, search: '?backend=cpu', loadGpuModule: gpuModule,
    });
    const want = self.crossOriginIsolated ? 'cpu-mt' : 'cpu-st';
    return { pass: s.backend === want && !touched && s.probe.kind === 'skipped', detail: `${s.backend}: ${s.reason}` };
  },

  // The WGSL matmul against gemm<float>: every (TA, TB), vec4 and scalar paths, batched, beta 0 and 1.
  async 'matmul: all transpositions, vec4 and scalar paths'() {
    const { module: m } = await gpu();
    const c = new m.GpuMatmulCheck();
    await m.lnxGpu.settled();
    const r = JSON.parse(c.resultJson());
    c.delete();
    const covered = new Set(r.cases.map((x) => `${x.tA}${x.tB}${x.vec4}`));
    const pass = r.max_rel <= TOL && covered.size === 8;
    return { pass, detail: `${r.cases.length} cases, ${covered.size}/8 (TA,TB,vec4) paths, max_rel ${e1(r.max_rel)}` };
  },

  // One forward/backward on both paths: loss, and every parameter gradient tensor as
  // max|gpu − cpu| / max|cpu| per tensor. The key bias has an exactly-zero gradient (softmax ignores a
  // common shift of a row's scores): both paths must give ≤ 1e-6 of the largest gradient entry there.
  ...Object.fromEntries(
    ['post', 'pre'].flatMap((norm) =>
      ['bidirectional', 'causal'].map((attention) => [
        `gradients of one step: ${norm}-LN, ${attention}`,
        async () => {
          const { module: m } = await gpu();
          const g = new m.GpuGradCheck(JSON.stringify({ ...SMALL, placement: norm, attention, seed: 5 }));
          await m.lnxGpu.settled();
          const r = JSON.parse(g.resultJson());
          g.delete();
          const zero = r.tensors.filter((t) => t.zero).map((t) => t.name);
          const zeroOk = zero.every((n) => /\.bk$/.test(n)) && r.zero_max_over_scale <= 1e-6;
          const pass = r.max_rel <= TOL && r.loss_rel <= TOL && zeroOk && r.tensors.length >= 28;
          const worst = r.tensors.filter((t) => !t.zero).sort((a, b) => b.max_rel - a.max_rel)[0];
          return { pass, detail: `${r.tensors.length} tensors, max_rel ${e1(r.max_rel)} (${worst.name}), loss ${e1(r.loss_rel)}; zero-gradient ${zero.join(', ') || 'none'} ≤ ${e1(r.zero_max_over_scale)}·max` };
        },
      ]),
    ),
  ),

  // The model's knobs away from their defaults (RMSNorm, a final norm forced on, an untied output
  // matrix, no √d input scale), and the other placements: one forward/backward on both paths.
  ...Object.fromEntries(
    [
      ['post-LN, rmsnorm + final norm + untied output + unscaled input', { placement: 'post', norm_type: 'rmsnorm', final_norm: 'on', output: 'untied', input_scale: 'none' }],
      ['pre-LN, rmsnorm + no final norm + untied output', { placement: 'pre', norm_type: 'rmsnorm', final_norm: 'off', output: 'untied' }],
      ['peri-LN', { placement: 'peri' }],
      ['deepnorm', { placement: 'deepnorm' }],
      ['admin', { placement: 'admin' }],
    ].map(([name, knobs]) => [
      `gradients of one step: ${name}`,
      async () => {
        const { module: m } = await gpu();
        const g = new m.GpuGradCheck(JSON.stringify({ ...SMALL, attention: 'causal', seed: 5, ...knobs }));
        await m.lnxGpu.settled();
        const r = JSON.parse(g.resultJson());
        g.delete();
        const zeroOk = r.tensors.filter((t) => t.zero).every((t) => /\.bk$/.test(t.name)) && r.zero_max_over_scale <= 1e-6;
        const pass = r.max_rel <= TOL && r.loss_rel <= TOL && zeroOk && r.tensors.length >= 20;
        return { pass, detail: `${r.tensors.length} tensors, max_rel ${e1(r.max_rel)}, loss ${e1(r.loss_rel)}` };
      },
    ]),
  ),

  // 20 steps of every optimizer the engine registers (warm-up 5, then its suggested peak lr) on both
  // paths: every step's loss and gradient norm, |gpu − cpu| / |cpu|; the learning rates identical.
  ...Object.fromEntries(
    ['post', 'pre'].map((norm) => [
      `losses over 20 steps of every optimizer: ${norm}-LN`,
      async () => {
        const { module: m } = await gpu();
        const parts = [];
        let pass = true;
        for (const o of JSON.parse(m.schemaJson()).optimizers) {
          const cfg = { ...SMALL, placement: norm, warmup: 5, steps: 20, seed: 2, optimizer: o.name, lr: o.suggested_lr };
          const a = await cpuTrain(m, cfg);
          const b = await gpuTrain(m, cfg);
          const lossRel = relMax(b.loss, a.loss), gnRel = relMax(b.grad_norm, a.grad_norm);
          pass &&= a.status === 'ok' && b.status === 'ok' && b.loss.length === 20 && lossRel <= TOL && gnRel <= TOL &&
            JSON.stringify(a.lr_schedule) === JSON.stringify(b.lr_schedule) && b.engine.backend === 'webgpu';
          parts.push(`${o.name}: loss ${e1(lossRel)}, grad-norm ${e1(gnRel)} (${a.loss[0].toFixed(3)} → ${a.loss[19].toFixed(3)})`);
        }
        return { pass, detail: `max_rel ${parts.join('; ')}` };
      },
    ]),
  ),

  // A run that blows up stops at the same step on both paths (GPU: the halt flag freezes the update).
  async 'a diverging run stops at the same step on both paths'() {
    const { module: m } = await gpu();
    const cfg = { ...SMALL, placement: 'post', warmup: 0, lr: 0.5, steps: 10, seed: 1 };
    const a = await cpuTrain(m, cfg);
    const b = await gpuTrain(m, cfg, 3);
    const pass = a.status === 'diverged' && b.status === a.status && b.stop_step === a.stop_step &&
      relMax(b.loss, a.loss) <= TOL;
    return { pass, detail: `cpu ${a.status} at ${a.stop_step}, gpu ${b.status} at ${b.stop_step}` };
  },

  async 'probe statistics (Figures 2–3) on both paths'() {
    const { module: m } = await gpu();
    const cfg = JSON.stringify({ ...SMALL, seeds: [0, 1], batches: 3, depth_batches: 2, depths: [2, 3] });
    const cpu = new m.ProbeRun(cfg);
    while (!cpu.done()) cpu.step(20);
    const a = JSON.parse(cpu.resultJson());
    cpu.delete();
    const g = new m.GpuProbeRun(cfg);
    await driveGpu(g, () => g.done(), () => m.lnxGpu.settled(), { chunk: 4 });
    const b = JSON.parse(g.resultJson());
    g.delete();
    const c = compareProbe(a, b);
    const pass = c.where.length === 0 && c.count > 40 && b.engine.backend === 'webgpu';
    return { pass, detail: `${c.count} numbers: means max_rel ${e1(c.worstMean)}, stds max |Δ|/mean ${e1(c.worstStd)}${c.where.length ? '; ' + c.where.slice(0, 3).join('; ') : ''}` };
  },

  // Device loss mid-run (device.destroy()): the GPU run throws "lnx: gpu: …", the fallback restarts
  // the run on the CPU module the page would use and says so; the result is the CPU's.
  async 'device lost mid-run: falls back to the CPU and restarts'() {
    const a = await backend.acquireWebGpu(navigator.gpu);
    if ('kind' in a) return { pass: false, detail: a.kind };
    const m = await gpuModule(a.device);
    const cfg = { ...SMALL, placement: 'pre', warmup: 2, lr: 1e-3, steps: 12, seed: 4 };
    const run = new m.GpuTrainRun(JSON.stringify(cfg), 2);
    let chunks = 0, error = null;
    try {
      await driveGpu(run, () => run.status() !== 'running', () => m.lnxGpu.settled(), {
        chunk: 2, onChunk: () => { if (++chunks === 2) a.device.destroy(); },
      });
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
    const pass = /lost/i.test(fb.reason) && result.status === 'ok' && result.loss.length === 12 && lossRel <= TOL &&
      !m.gpuAvailable() && !result.engine.backend;
    return { pass, detail: `after ${chunks} chunks: "${error.message.slice(0, 80)}" → ${fb.backend}, notice: "${fb.reason.slice(0, 90)}…"; restarted run ok, loss vs CPU ${e1(lossRel)}` };
  },

  // Run in a browser without --enable-unsafe-webgpu (run.mjs): navigator.gpu exists, no adapter.
  async 'no adapter: selection falls back to the CPU'() {
    const s = await backend.selectBackend({
      gpu: navigator.gpu, crossOriginIsolated: self.crossOriginIsolated, search: '?backend=webgpu', loadGpuModule: gpuModule,
    });
    const want = self.crossOriginIsolated ? 'cpu-mt' : 'cpu-st';
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
