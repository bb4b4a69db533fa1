// webgpu_bench.worker.js — the Chromium host of the GPU measurements of bench/webgpu_bench.mjs
// (bench/webgpu_measure.js, shared with Node's scripts/gpu-check.mjs), in a module worker: loads the
// engine flavours, acquires the adapter, measures, posts the result.
// Leaves out: correctness (tests/webgpu), the page's own timings (bench/page_bench.mjs).
import { isSoftwareAdapter } from '../web/src/engine/backend-choice.ts';
import { measureAll } from './webgpu_measure.js';

const GLUE = (name) => new URL(`../public/wasm/lnx-${name}.mjs`, import.meta.url).href;
const log = (s) => self.postMessage({ log: s });

async function load(name, opts = {}) {
  const create = (await import(GLUE(name))).default;
  return create({ mainScriptUrlOrBlob: GLUE(name), ...opts });
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
    const gpu = await load('gpu', { gpuDevice: device });
    const st = await load('st');
    const threads = Math.min(4, navigator.hardwareConcurrency || 2);
    const mt = self.crossOriginIsolated ? await load('mt') : null;
    mt?.setThreads(threads);
    const out = await measureAll({ gpu, st, mt, threads, software, o, log });
    self.postMessage({ adapter: { vendor: info.vendor, architecture: info.architecture, description: info.description, software }, ...out });
  } catch (e) {
    self.postMessage({ error: e && e.stack ? e.stack : String(e) });
  }
};
