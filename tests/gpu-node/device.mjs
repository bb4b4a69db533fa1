// device.mjs — a WebGPU device in Node from Dawn's bindings (the `webgpu` npm package), acquired as
// the page acquires one (web/src/engine/backend-choice.ts acquireWebGpu: the adapter's largest
// buffer limits), and the lnx-gpu engine module on it (scripts/load-engine.mjs).
// Needs the Vulkan environment of vulkan-env.mjs. Keeps the `create()` instance referenced: Dawn
// tears the instance down when it is garbage-collected, and the process aborts if a device of it is
// still in use. Leaves out: the CPU fallback (the page's; tests/webgpu checks it).
import { create, globals } from 'webgpu';
import { acquireWebGpu } from '../../web/src/engine/backend-choice.ts';
import { loadEngine } from '../../scripts/load-engine.mjs';

let instance = null; // the Dawn instance: referenced for the life of the process (see above)
const LIMITS = [
  'maxBufferSize',
  'maxStorageBufferBindingSize',
  'maxStorageBuffersPerShaderStage',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupsPerDimension',
  'minStorageBufferOffsetAlignment',
];

/**
 * Makes Dawn's wait for the GPU poll about once a millisecond instead of in a busy loop. While any
 * GPU work is awaited (a readback's mapAsync, onSubmittedWorkDone), Dawn's Node binding asks the
 * instance for its events again on every turn of the event loop (its AsyncRunner re-arms itself
 * with `setImmediate`), so the Node thread spins at 100% on a core that SwiftShader's threads need
 * for the work it waits for. Routing `setImmediate` through `setTimeout(…, 0)` (≥ 1 ms in Node)
 * leaves the results alone and adds at most a millisecond to each wait: one check ("losses over 20
 * steps of every optimizer: post-LN") took 30.7 → 17.3 CPU-seconds and 19.6 → 14.8 s here (2 cores).
 * For the tests only (tests/gpu-node/run.mjs): timings (bench/webgpu_host.mjs, scripts/gpu-check.mjs)
 * keep Node's own loop, as measured before.
 */
export function pollGently() {
  if (globalThis.setImmediate.gentle) return;
  const gentle = (fn, ...args) => setTimeout(fn, 0, ...args);
  gentle.gentle = true;
  globalThis.setImmediate = gentle;
}

/** { module, device, adapter (name), software, info, limits, features } or throws with the reason. */
export async function openGpu() {
  Object.assign(globalThis, globals); // GPUBufferUsage, GPUMapMode… as a browser has them
  instance ??= create([]);
  const a = await acquireWebGpu(instance);
  if ('kind' in a) throw new Error(`no WebGPU device in Node: ${a.kind}${a.message ? ` (${a.message})` : ''}`);
  const raw = a.raw; // the adapter the device came from (asked for once, as the page does)
  const info = raw.info ?? {};
  const module = await loadEngine('gpu', { gpuDevice: a.device });
  return {
    module,
    device: a.device,
    adapter: a.adapter,
    software: a.software,
    info: { vendor: info.vendor, architecture: info.architecture, device: info.device, description: info.description },
    limits: Object.fromEntries(LIMITS.map((k) => [k, a.device.limits[k]])),
    features: raw.features ? [...raw.features].sort() : [],
  };
}
