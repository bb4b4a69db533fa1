#!/usr/bin/env node
// run.mjs — `npm run test:gpu-node`: the engine's WebGPU path against its CPU path in Node, over
// Dawn's bindings (the `webgpu` npm package) and Chromium's SwiftShader Vulkan driver: every op of
// the backend interface, the WGSL matmul, one step's gradients for every placement and knob, 20
// steps of every optimizer, a diverging run, the probe statistics (tests/webgpu/engine-checks.js,
// the checks the Chromium test runs too). Prints one line per check, then one summary line; exits
// non-zero on any mismatch or when the harness cannot start.
//   node tests/gpu-node/run.mjs [--system]     --system: the machine's own Vulkan driver, not SwiftShader
// Needs public/wasm/lnx-gpu.* (scripts/build-wasm.sh), node_modules/webgpu, a Vulkan loader
// (vulkan-env.mjs). Leaves out: the page and the backend selection (tests/webgpu/run.mjs), timing
// (scripts/gpu-check.mjs).
import { existsSync } from 'node:fs';
import { ensureVulkanEnv } from './vulkan-env.mjs';

const env = ensureVulkanEnv(process.argv.includes('--system') ? 'system' : 'swiftshader');
const ROOT = new URL('../../', import.meta.url);
for (const f of ['public/wasm/lnx-gpu.mjs', 'public/wasm/lnx-gpu.wasm', 'node_modules/webgpu/package.json'])
  if (!existsSync(new URL(f, ROOT))) {
    console.error(`gpu-node: missing ${f} (${f.startsWith('node_') ? 'npm install' : 'scripts/build-wasm.sh'})`);
    process.exit(1);
  }

const { openGpu, pollGently } = await import('./device.mjs');
pollGently(); // Dawn's wait for the GPU, once a millisecond instead of a busy loop (device.mjs)
const { engineChecks } = await import('../webgpu/engine-checks.js');

let passed = 0,
  failed = 0;
const t0 = Date.now();
let gpu;
try {
  gpu = await openGpu();
} catch (e) {
  console.log(`FAIL  WebGPU device in Node: ${e.message}${env.notes.length ? ` (${env.notes.join('; ')})` : ''}`);
  console.log('gpu-node: 0 passed, 1 failed: no device');
  process.exit(1);
}
console.log(`WebGPU in Node (Dawn): ${gpu.adapter}${gpu.software ? ' (software)' : ''}; Vulkan loader: ${env.loader}; driver: ${env.icd}`);
for (const n of env.notes) console.log(`      note: ${n}`);
const checks = engineChecks(async () => gpu);
for (const [name, fn] of Object.entries(checks)) {
  const t = Date.now();
  let r;
  try {
    r = await fn();
  } catch (e) {
    r = { pass: false, detail: `threw: ${e?.stack?.split('\n').slice(0, 3).join(' | ') ?? e}` };
  }
  if (r.pass) passed++;
  else failed++;
  console.log(`${r.pass ? 'ok  ' : 'FAIL'}  ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)\n      ${r.detail}`);
}
const lost = gpu.module.lnxGpu.lost || gpu.module.lnxGpu.error;
if (lost) {
  failed++;
  console.log(`FAIL  the device reported: ${lost}`);
}
gpu.device.destroy();
console.log(`gpu-node: ${passed} passed, ${failed} failed on ${gpu.adapter} in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
process.exit(failed ? 1 : 0);
