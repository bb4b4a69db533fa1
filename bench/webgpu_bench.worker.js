// webgpu_bench.worker.js — the Chromium host of the GPU measurements of bench/webgpu_bench.mjs
// (bench/webgpu_measure.js, shared with Node's scripts/gpu-check.mjs), in a module worker: loads the
// engine flavours, acquires the adapter, measures, posts the result. The host's part of a step
// (measureHost) is measured for this build and, when bench/webgpu_baseline.sh made one, for the
// baseline build in build/gpu-baseline/, sampled in turn.
// Leaves out: correctness (tests/webgpu), the page's own timings (bench/page_bench.mjs).
import { isSoftwareAdapter } from '../web/src/engine/backend-choice.ts';
import { countingOptions, measureAll, measureHost } from './webgpu_measure.js';

const GLUE = (name, dir = '../public/wasm') => new URL(`${dir}/lnx-${name}.mjs`, import.meta.url).href;
const BASELINE = '../build/gpu-baseline';
const log = (s) => self.postMessage({ log: s });

async function load(name, opts = {}, dir = undefined) {
  const create = (await import(`${GLUE(name, dir)}?${opts.instantiateWasm ? 'counted' : 'timed'}`)).default;
  return create({ mainScriptUrlOrBlob: GLUE(name, dir), ...opts });
}

// This build and the baseline's (when there is one): a timed and a counted lnx-gpu on the device.
async function hostBuilds(gpuDevice) {
  const builds = [];
  for (const [name, dir] of [
    ['this build', '../public/wasm'],
    ['baseline', BASELINE],
  ]) {
    const wasm = new URL(`${dir}/lnx-gpu.wasm`, import.meta.url);
    if (!(await fetch(wasm, { method: 'HEAD' })).ok) continue;
    const note = dir === BASELINE ? await fetch(new URL(`${dir}/BASELINE`, import.meta.url)).then((r) => (r.ok ? r.text() : '')) : '';
    const counts = { imports: 0, exports: 0 };
    const bytes = fetch(wasm).then((r) => r.arrayBuffer());
    builds.push({
      name: note.trim() ? `${name} (${note.trim().split('\n')[0]})` : name,
      m: await load('gpu', { gpuDevice }, dir),
      counted: { m: await load('gpu', { gpuDevice, ...countingOptions(bytes, counts) }, dir), counts },
    });
  }
  return builds;
}

self.onmessage = async (ev) => {
  const o = ev.data;
  try {
    const adapter = await navigator.gpu?.requestAdapter({ powerPreference: 'high-performance' });
    if (!adapter) throw new Error('no WebGPU adapter (run Chromium with --enable-unsafe-webgpu and a GPU driver)');
    const info = adapter.info ?? {};
    const software = isSoftwareAdapter(adapter);
    const device = await adapter.requestDevice({
      requiredLimits: { maxBufferSize: adapter.limits.maxBufferSize, maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize },
    });
    const adapterInfo = { vendor: info.vendor, architecture: info.architecture, description: info.description, software };
    const host = o.noHost ? null : await measureHost(await hostBuilds(device), { samples: o.hostSamples, log });
    if (o.hostOnly) {
      self.postMessage({ adapter: adapterInfo, host });
      return;
    }
    const gpu = await load('gpu', { gpuDevice: device });
    const st = await load('st');
    const threads = Math.min(4, navigator.hardwareConcurrency || 2);
    const mt = self.crossOriginIsolated ? await load('mt') : null;
    mt?.setThreads(threads);
    const out = await measureAll({ gpu, st, mt, threads, software, o, log });
    self.postMessage({ adapter: adapterInfo, host, ...out });
  } catch (e) {
    self.postMessage({ error: e && e.stack ? e.stack : String(e) });
  }
};
