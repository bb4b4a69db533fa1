#!/usr/bin/env node
// gpu-check.mjs — the one command for a real GPU (scripts/gpu-check.sh runs it): in Node over Dawn
// (the `webgpu` npm package), on whatever Vulkan GPU the machine has, it
//   1. names the adapter and the limits the device was given,
//   2. checks the WebGPU path against the CPU engine (tests/webgpu/engine-checks.js: every op, the
//      matmul, gradients of every placement, 20 steps of every optimizer, the probe),
//   3. times a toy training step and a probe pass (WebGPU, CPU 1 thread, CPU N threads), counts
//      dispatches and submits per step, and measures the WGSL matmul's GFLOP/s at the models' shapes
//      (bench/webgpu_measure.js, as `npm run bench` does in Chromium),
//      and R toy runs as one batch (the page's Figure 4: GpuTrainBatch, ms per batched step),
//   4. runs Figure 4's full grid on the GPU as the page does (web/src/engine/gpu-grid.ts) when its
//      estimate from step 3 fits the budget (--grid-budget seconds, default 300), else reports the
//      estimate,
// and writes everything as one JSON file (--out FILE, default $OUT/gpu-check.json when $OUT is set,
// else build/gpu-check.json), printing a summary. On a software adapter (SwiftShader, also the
// fallback when the machine has no GPU driver) the speed figures are marked "speed_meaningful":
// false. Exit status: 1 when a correctness check fails or no device opens, else 0.
//   node scripts/gpu-check.mjs [--swiftshader] [--quick] [--grid-budget S] [--skip-checks] [--out FILE]
// Needs public/wasm/lnx-{gpu,st,mt}.*, node_modules/{webgpu,typescript}, a Vulkan loader and ICD
// (docs/webgpu.md, "A real GPU"). Leaves out: the page (tests/webgpu), the browser's own overheads.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureVulkanEnv } from '../tests/gpu-node/vulkan-env.mjs';

const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const env = ensureVulkanEnv(args.includes('--swiftshader') ? 'swiftshader' : 'system');
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(opt('--out') ?? (process.env.OUT ? `${process.env.OUT}/gpu-check.json` : `${ROOT}/build/gpu-check.json`));
const gridBudget = Number(opt('--grid-budget') ?? 300);
if (!(gridBudget >= 0)) {
  console.error(`gpu-check: --grid-budget must be a number of seconds ≥ 0, not "${opt('--grid-budget')}"`);
  process.exit(2);
}
const log = (s) => process.stderr.write(`gpu-check: ${s}\n`);

const { openGpu } = await import('../tests/gpu-node/device.mjs');
const { engineChecks } = await import('../tests/webgpu/engine-checks.js');
const { measureAll } = await import('../bench/webgpu_measure.js');
const { GpuGrid, GPU_GRID_CONCURRENT, GPU_GRID_READBACK } = await import('../web/src/engine/gpu-grid.ts');
const { loadEngine } = await import('./load-engine.mjs');

const report = {
  schema: 'lnx-gpu-check/1',
  measured: new Date().toISOString(),
  host: { cpu: os.cpus()[0]?.model, cores: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.release()}` },
  vulkan: { loader: env.loader, driver: env.driver, icd: env.icd, notes: env.notes },
};
let gpu;
try {
  gpu = await openGpu();
} catch (e) {
  report.error = e.message;
  save();
  log(`${e.message}${env.notes.length ? ` (${env.notes.join('; ')})` : ''}`);
  process.exit(1);
}
report.adapter = { name: gpu.adapter, ...gpu.info, software: gpu.software, limits: gpu.limits, features: gpu.features };
report.speed_meaningful = !gpu.software;
log(`adapter ${gpu.adapter}${gpu.software ? ' (software: timings are not GPU speed)' : ''}`);

// 2. correctness
let failed = 0;
if (!args.includes('--skip-checks')) {
  report.correctness = { checks: [] };
  for (const [name, fn] of Object.entries(engineChecks(async () => gpu))) {
    const t = Date.now();
    let r;
    try {
      r = await fn();
    } catch (e) {
      r = { pass: false, detail: `threw: ${e.message}` };
    }
    if (!r.pass) failed++;
    report.correctness.checks.push({ name, pass: r.pass, detail: r.detail, seconds: (Date.now() - t) / 1000 });
    log(`${r.pass ? 'ok  ' : 'FAIL'} ${name}: ${r.detail}`);
  }
  report.correctness.passed = report.correctness.checks.length - failed;
  report.correctness.failed = failed;
}

// 3. speed
const st = await loadEngine('st');
const mt = await loadEngine('mt');
const threads = Math.min(os.cpus().length, 16);
mt.setThreads(threads);
try {
  report.speed = await measureAll({ gpu: gpu.module, st, mt, threads: mt.threads(), software: gpu.software, o: { quick: args.includes('--quick') }, log });
} catch (e) {
  report.error = `the timings failed: ${String(e.message ?? e).split('\n')[0]}`;
  save();
  log(report.error);
  process.exit(1);
}

// 4. the full grid of Figure 4 (the engine's grid defaults), as the page runs it on WebGPU
const plan = JSON.parse(gpu.module.gridPlanJson('{}'));
const steps = plan.runs.reduce((s, r) => s + r.train.steps, 0);
const sameModel = ['layers', 'd', 'd_ff', 'vocab', 'seq', 'batch'].every((k) => plan.runs[0].train[k] === report.speed.toy_config[k]);
// The page's batches (gpu-grid.ts): per shape, runs in batches of at most GPU_GRID_CONCURRENT. The
// estimate takes the batched step measured at toy_batch.runs and scales it to each batch's size
// linearly (a real GPU does better: the point of batching), so it errs long.
const shapes = new Map();
for (const r of plan.runs) shapes.set(r.shape, (shapes.get(r.shape) ?? 0) + 1);
const batches = [...shapes.values()].flatMap((n) =>
  Array.from({ length: Math.ceil(n / GPU_GRID_CONCURRENT) }, (_, i) => Math.min(GPU_GRID_CONCURRENT, n - i * GPU_GRID_CONCURRENT)),
);
const tb = report.speed.toy_batch;
const estimate = sameModel ? batches.reduce((s, n) => s + plan.runs[0].train.steps * tb.ms * Math.max(1, n / tb.runs), 0) / 1000 : null;
report.grid = {
  runs: plan.runs.length,
  steps_per_run: plan.runs[0].train.steps,
  concurrent: GPU_GRID_CONCURRENT,
  batches,
  readback_every: GPU_GRID_READBACK,
  estimate_s: estimate,
  budget_s: gridBudget,
  unbatched_estimate_s: sameModel ? (steps * report.speed.toy.gpu_ms) / 1000 : null,
};
if (estimate !== null && estimate <= gridBudget) {
  log(`grid: ${plan.runs.length} runs × ${plan.runs[0].train.steps} steps (estimate ${estimate.toFixed(0)} s)`);
  const t0 = performance.now();
  const g = new GpuGrid(gpu.module, '{}');
  while (!g.done()) {
    g.step(GPU_GRID_READBACK);
    await gpu.module.lnxGpu.settled();
  }
  const doc = JSON.parse(g.resultJson(0));
  g.delete();
  report.grid.measured = true;
  report.grid.seconds = (performance.now() - t0) / 1000;
  report.grid.statuses = doc.runs.map((r) => r.status);
} else {
  report.grid.measured = false;
  report.grid.why =
    estimate === null ? 'the toy config of the timing differs from the grid model' : `its estimate is over the budget of ${gridBudget} s (--grid-budget)`;
  log(`grid: not run (${report.grid.why}); estimate ${estimate?.toFixed(0)} s`);
}
report.gpu_error = gpu.module.lnxGpu.lost || gpu.module.lnxGpu.error || null;
if (report.gpu_error) failed++;
save();

const f = (x, d = 1) => (typeof x === 'number' ? x.toFixed(d) : '—');
const s = report.speed;
console.log(`Adapter: ${gpu.adapter}${gpu.software ? '  (software: these timings say nothing about GPU speed)' : ''}`);
if (report.correctness) console.log(`Correctness vs CPU: ${report.correctness.passed} passed, ${failed} failed`);
console.log(
  `toy step: WebGPU ${f(s.toy.gpu_ms)} ms (${f(s.toy.gpu_dispatches, 0)} dispatches, ${f(s.toy.gpu_submits, 1)} submits); CPU 1t ${f(s.toy.cpu_st_ms)} ms, ${s.cpu_threads}t ${f(s.toy.cpu_mt_ms)} ms`,
);
console.log(
  `toy batch of ${s.toy_batch.runs}: ${f(s.toy_batch.ms)} ms a step for all (${f(s.toy_batch.per_run_ms)} ms per run; ${f(s.toy_batch.dispatches, 0)} dispatches, ${f(s.toy_batch.submits, 1)} submits)`,
);
console.log(`host recording per step: one run ${f(s.toy.gpu_record_ms, 2)} ms; the batch of ${s.toy_batch.runs} ${f(s.toy_batch.record_ms, 2)} ms for all`);
console.log(`probe pass: WebGPU ${f(s.probe.gpu_ms)} ms; CPU 1t ${f(s.probe.cpu_st_ms)} ms, ${s.cpu_threads}t ${f(s.probe.cpu_mt_ms)} ms`);
console.log(`matmul: ${s.matmul.map((m) => `${m.M}×${m.N}×${m.K} ${f(m.gflops, 1)}`).join(', ')} GFLOP/s`);
console.log(`grid: ${report.grid.measured ? `${f(report.grid.seconds)} s measured` : `not run, estimate ${f(estimate, 0)} s`}`);
console.log(`wrote ${out}`);
process.exit(failed ? 1 : 0);

function save() {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
}
