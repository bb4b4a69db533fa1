#!/usr/bin/env node
// compare-builds.mjs — two builds of lnx-gpu on one device, bit for bit: for a change of the device
// layer that must not change what the GPU computes (the dispatch list of issue 32: the same kernels
// in the same order with the same inputs), every result of the WebGPU path is compared between a
// baseline build and this one: training runs (every optimizer, a placement spec with every op a spec
// adds, a diverging run; losses, gradient norms, status, stop step, checkpoints every 3 steps; 70
// steps, so a run's history crosses several 64-float windows), a batch of runs, the probe, the op,
// matmul and gradient checks' documents. Exits non-zero on any difference.
//   node tests/gpu-node/compare-builds.mjs [--baseline DIR] [--wasm DIR]
// Defaults: build/gpu-baseline (bench/webgpu_baseline.sh) against public/wasm. Not part of npm test
// (it needs a baseline build); docs/webgpu.md, "Recording", records its result.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureVulkanEnv } from './vulkan-env.mjs';

const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
ensureVulkanEnv(args.includes('--system') ? 'system' : 'swiftshader');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs = [path.resolve(opt('--baseline') ?? `${ROOT}/build/gpu-baseline`), path.resolve(opt('--wasm') ?? `${ROOT}/public/wasm`)];

const { openGpu } = await import('./device.mjs');
const { TINY, SMALL, SPEC_OPTIONS, specKnobs } = await import('../webgpu/engine-checks.js');
const gpu = await openGpu();
async function load(dir) {
  const glue = pathToFileURL(`${dir}/lnx-gpu.mjs`);
  globalThis.require ??= createRequire(glue);
  globalThis.__dirname ??= dir;
  const factory = (await import(`${glue.href}?compare`)).default;
  return factory({ gpuDevice: gpu.device, wasmBinary: readFileSync(`${dir}/lnx-gpu.wasm`) });
}
const builds = [];
for (const d of dirs) builds.push(await load(d));

// Every number as its bits (NaN payloads and -0 included), so "same" means the same bits.
const bits = (x) => JSON.stringify(x, (k, v) => (typeof v === 'number' ? `${v}|${Object.is(v, -0)}` : v));

async function train(m, cfg, every = 5) {
  const r = new m.GpuTrainRun(JSON.stringify(cfg), every);
  r.setCheckpointEvery(3);
  const ckpts = [];
  try {
    while (r.status() === 'running') {
      r.step(4);
      await m.lnxGpu.settled();
      const c = r.takeCheckpoint();
      if (c) ckpts.push({ step: c.step, values: Array.from(c.values) });
    }
    const d = JSON.parse(r.resultJson(0));
    return [d.loss, d.grad_norm, d.lr_schedule, d.status, d.stop_step, ckpts];
  } finally {
    r.delete();
  }
}
async function batch(m, cfgs) {
  const b = new m.GpuTrainBatch(
    cfgs.map((c) => JSON.stringify(c)),
    5,
  );
  b.setCheckpointEvery(4);
  const ckpts = cfgs.map(() => []);
  try {
    while (cfgs.some((_, i) => b.status(i) === 'running')) {
      b.step(3);
      await m.lnxGpu.settled();
      cfgs.forEach((_, i) => {
        const c = b.takeCheckpoint(i);
        if (c) ckpts[i].push({ step: c.step, values: Array.from(c.values) });
      });
    }
    return cfgs.map((_, i) => {
      const d = JSON.parse(b.resultJson(i, 0));
      return [d.loss, d.grad_norm, d.status, d.stop_step, ckpts[i]];
    });
  } finally {
    b.delete();
  }
}
async function doc(m, Cls, ...a) {
  const c = new m[Cls](...a);
  try {
    if (c.done) {
      while (!c.done()) {
        c.step(4);
        await m.lnxGpu.settled();
      }
    } else await m.lnxGpu.settled();
    return c.resultJson();
  } finally {
    c.delete();
  }
}

// the optimizers both builds know (a baseline from before an optimizer was registered lacks it)
const optimizersOf = (m) => JSON.parse(m.schemaJson()).optimizers;
const older = new Set(optimizersOf(builds[0]).map((o) => o.name));
const optimizers = optimizersOf(builds[1]).filter((o) => older.has(o.name));
for (const o of optimizersOf(builds[1])) if (!older.has(o.name)) console.log(`skip  ${o.name}: ${path.relative(ROOT, dirs[0])} does not have it`);
const cases = [
  ...optimizers.map((o) => [
    `70 steps, post-LN, ${o.name}`,
    (m) => train(m, { ...TINY, placement: 'post', warmup: 5, steps: 70, seed: 2, optimizer: o.name, lr: o.suggested_lr }),
  ]),
  ['70 steps, pre-LN rmsnorm, adam', (m) => train(m, { ...TINY, placement: 'pre', norm_type: 'rmsnorm', warmup: 5, steps: 70, seed: 3, lr: 1e-3 })],
  ['40 steps, spec "all together"', (m) => train(m, { ...TINY, ...specKnobs(SPEC_OPTIONS['all together']), warmup: 5, steps: 40, seed: 4, lr: 1e-3 })],
  ['a diverging run (post-LN, lr 0.5)', (m) => train(m, { ...SMALL, placement: 'post', warmup: 0, lr: 0.5, steps: 10, seed: 1 }, 3)],
  [
    'a batch of 3 runs, 40 steps',
    (m) =>
      batch(
        m,
        [0, 1, 2].map((i) => ({ ...TINY, placement: 'pre', steps: 40, seed: i, lr: 1e-3 * (1 + 2 * i), warmup: 2 * i })),
      ),
  ],
  ['the probe', (m) => doc(m, 'GpuProbeRun', JSON.stringify({ ...SMALL, seeds: [0, 1], batches: 3, depth_batches: 2, depths: [2, 3] }))],
  // the ops both builds check (an op added since the baseline, e.g. an optimizer's update, is listed and skipped)
  ['every backend op (GpuOpCheck)', async (m) => JSON.parse(await doc(m, 'GpuOpCheck')).ops, (docs) => sharedOps(docs)],
  ['matmul check', (m) => doc(m, 'GpuMatmulCheck')],
  ['gradients of one step, pre-LN causal', (m) => doc(m, 'GpuGradCheck', JSON.stringify({ ...SMALL, placement: 'pre', attention: 'causal', seed: 5 }))],
];
let failed = 0;
/** Each build's ops restricted to the (op, output) pairs both have; the others are printed. */
function sharedOps(docs) {
  const key = (o) => `${o.op}/${o.output}`;
  const keys = docs.map((ops) => new Set(ops.map(key)));
  for (const [i, ops] of docs.entries())
    for (const o of ops) if (!keys[1 - i].has(key(o))) console.log(`skip  op ${key(o)}: only in ${path.relative(ROOT, dirs[i])}`);
  return docs.map((ops) => ops.filter((o) => keys.every((k) => k.has(key(o)))));
}
for (const [name, f, shared] of cases) {
  let docs = [];
  for (const m of builds) docs.push(await f(m));
  if (shared) docs = shared(docs);
  const got = docs.map(bits);
  const same = got[0] === got[1];
  if (!same) failed++;
  console.log(`${same ? 'same' : 'DIFFERENT'}  ${name} (${got[0].length} characters)`);
}
for (const m of builds)
  if (m.lnxGpu.lost || m.lnxGpu.error) {
    failed++;
    console.log(`FAIL  the device reported: ${m.lnxGpu.lost || m.lnxGpu.error}`);
  }
console.log(
  `compare-builds: ${cases.length - failed} of ${cases.length} the same bit for bit (${path.relative(ROOT, dirs[0])} vs ${path.relative(ROOT, dirs[1])})`,
);
gpu.device.destroy();
process.exit(failed ? 1 : 0);
