#!/usr/bin/env node
// webgpu_host.mjs — the host's part of a WebGPU step (bench/webgpu_measure.js, measureHost) for one
// or more builds of lnx-gpu sampled in turn, in Node over Dawn and SwiftShader: host ms per step of
// a run, per run-step of a batch of R runs, per probe pass; dispatches, submits, uniform writes and
// the calls between wasm and JavaScript per step. The Chromium benchmark (webgpu_bench.mjs) runs the
// same measurement in a browser worker. In Node the host's part includes Dawn's own translation of
// the commands for the driver (in a browser that runs in the GPU process), so it is larger here.
//   node bench/webgpu_host.mjs [--wasm DIR]... [--model narrow|toy] [--samples N] [--runs R] [--json FILE]
// DIR holds lnx-gpu.mjs and lnx-gpu.wasm (default public/wasm; the baseline of
// bench/webgpu_baseline.sh is build/gpu-baseline). --model narrow (the default) is the toy's 8 layers
// at small widths (NARROW_TOY: the same dispatches, a fast software step); --model toy is Figure 4's.
// Prints a table on stderr and the JSON on stdout. Says nothing of GPU time (SwiftShader's is not one).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureVulkanEnv } from '../tests/gpu-node/vulkan-env.mjs';

const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const env = ensureVulkanEnv('swiftshader');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dirs = args.flatMap((a, i) => (a === '--wasm' ? [path.resolve(args[i + 1])] : []));
if (!dirs.length) dirs.push(`${ROOT}/public/wasm`);
const T0 = Date.now();
const log = (s) => process.stderr.write(`webgpu-host: [${((Date.now() - T0) / 1000).toFixed(0)} s] ${s}\n`);

const { CONFIGS, NARROW_TOY, countingOptions, measureHost } = await import('./webgpu_measure.js');
const models = { narrow: NARROW_TOY, toy: CONFIGS.full.toy };
const modelName = opt('--model') ?? 'narrow';
if (!models[modelName]) {
  console.error(`webgpu-host: --model must be one of ${Object.keys(models).join(', ')}`);
  process.exit(2);
}
const { openGpu } = await import('../tests/gpu-node/device.mjs');
const gpu = await openGpu(); // also loads public/wasm's lnx-gpu; the builds below are loaded on its device

async function load(dir, extra = {}) {
  const glue = pathToFileURL(`${dir}/lnx-gpu.mjs`);
  globalThis.require ??= createRequire(glue);
  globalThis.__dirname ??= dir;
  // a query string per instance: each import is a module of its own (its own LnxGpu state)
  const factory = (await import(`${glue.href}?${extra.instantiateWasm ? 'counted' : 'timed'}`)).default;
  return factory({ gpuDevice: gpu.device, wasmBinary: readFileSync(`${dir}/lnx-gpu.wasm`), ...extra });
}
const builds = [];
for (const dir of dirs) {
  const counts = { imports: 0, exports: 0 };
  const bytes = readFileSync(`${dir}/lnx-gpu.wasm`);
  builds.push({
    name: path.relative(ROOT, dir) || '.',
    m: await load(dir),
    counted: { m: await load(dir, countingOptions(bytes, counts)), counts },
  });
}
const r = await measureHost(builds, {
  model: models[modelName],
  samples: Number(opt('--samples') ?? 30),
  runs: Number(opt('--runs') ?? 8),
  log,
});
const out = {
  measured: new Date().toISOString(),
  host: 'node (Dawn)',
  adapter: gpu.adapter,
  software: gpu.software,
  driver: env.driver,
  model_name: modelName,
  ...r,
};
const f = (x, d = 3) => (typeof x === 'number' ? x.toFixed(d) : '—');
for (const b of out.builds) {
  log(`${b.name}:`);
  for (const [job, j] of Object.entries(b.jobs))
    log(
      `  ${job.padEnd(5)} ${f(j.host_ms)} ms (p25 ${f(j.host_ms_p25)}, p75 ${f(j.host_ms_p75)}, min ${f(j.host_ms_min)})${j.per_run_step ? ` per run-step of ${j.runs}` : ''}; ${j.dispatches} dispatches, ${j.submits} submits, ${j.uniform_writes ?? '—'} uniform writes; wasm→JS ${f(j.wasm_to_js, 0)}, JS→wasm ${f(j.js_to_wasm, 0)} per call`,
    );
}
if (opt('--json')) writeFileSync(opt('--json'), JSON.stringify(out, null, 2) + '\n');
console.log(JSON.stringify(out));
gpu.device.destroy();
