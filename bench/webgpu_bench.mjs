#!/usr/bin/env node
// webgpu_bench.mjs — the GPU section of the benchmark: in headless Chromium, ms per toy training
// step and per probe pass on each path (WebGPU, CPU 1 thread, CPU N threads), GFLOP/s of the WGSL
// matmul at the models' shapes, and dispatches/submits per step (webgpu_bench.worker.js).
//   node bench/webgpu_bench.mjs [--full | --quick] [--steps N] [--passes N] [--chromium PATH]
//                               [--flags "--use-vulkan --enable-features=Vulkan"] [--headful]
//                               [--host-only | --no-host] [--host-samples N]
// First the host's part of a step (webgpu_measure.js measureHost: the synchronous step(1) call with
// the GPU idle, per run, per run-step of a batch of 8, per probe pass; calls between wasm and JS), for
// this build and, when bench/webgpu_baseline.sh has made one, the baseline build, sampled in turn;
// --host-only stops there; --no-host leaves it out (scripts/bench.mjs measures it in its gpuhost section).
// Prints a readable table on stderr and one JSON line on stdout (scripts/bench.mjs stores it).
// Sizes: the article's probe model (6 layers, d = 512) and the toy model (8 layers, d = 128) on a
// real adapter; on a software adapter (SwiftShader) a 2-layer d = 128 probe model unless --full.
// SwiftShader runs WGSL on the CPU about 100× slower than the wasm engine: its numbers are recorded
// for completeness and say nothing about GPU speed. docs/webgpu.md says how to run this on a GPU.
// Needs public/wasm/lnx-{gpu,st,mt}.* (scripts/build-wasm.sh) and Chromium.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { ROOT, serve } from '../tests/webgpu/server.mjs';
import { BROWSER_FLAGS } from '../tests/e2e/harness.mjs';

const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const CHROMIUM = opt('--chromium') ?? process.env.CHROMIUM ?? '/usr/bin/chromium';
const extra = (opt('--flags') ?? '').split(/\s+/).filter(Boolean);
const flags = [...BROWSER_FLAGS, '--enable-unsafe-webgpu', ...extra];
for (const f of ['lnx-gpu.wasm', 'lnx-st.wasm', 'lnx-mt.wasm'])
  if (!existsSync(`${ROOT}/public/wasm/${f}`)) {
    console.error(`missing public/wasm/${f}: run scripts/build-wasm.sh`);
    process.exit(1);
  }
process.env.XDG_RUNTIME_DIR ??= '/tmp';

const server = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: flags, headless: !args.includes('--headful') });
let r;
try {
  const page = await browser.newPage();
  page.on('console', (m) => process.stderr.write(`webgpu-bench: ${m.text()}\n`));
  await page.goto(`${server.url}/bench/webgpu_bench.html`);
  await page.waitForFunction(() => window.benchReady === true);
  page.setDefaultTimeout(0);
  r = await page.evaluate((o) => window.runBench(o), {
    full: args.includes('--full'),
    quick: args.includes('--quick'),
    steps: opt('--steps') ? Number(opt('--steps')) : undefined,
    passes: opt('--passes') ? Number(opt('--passes')) : undefined,
    hostOnly: args.includes('--host-only'),
    noHost: args.includes('--no-host'),
    hostSamples: opt('--host-samples') ? Number(opt('--host-samples')) : undefined,
  });
} finally {
  await browser.close();
  await server.close();
}
if (r.error) {
  console.error(`webgpu-bench: ${r.error}`);
  process.exit(1);
}
r.measured = new Date().toISOString();
r.chromium_flags = flags;

const f = (x, d = 1) => (typeof x === 'number' ? x.toFixed(d) : '—');
const e = (s) => process.stderr.write(s + '\n');
const a = r.adapter;
e(`\nAdapter: ${a.vendor} ${a.architecture} ${a.description ?? ''}${a.software ? '  (software rasteriser: no speed claim)' : ''}; sizes: ${r.size ?? '—'}`);
for (const b of r.host?.builds ?? [])
  for (const [job, j] of Object.entries(b.jobs))
    e(
      `host ${job.padEnd(5)} ${b.name}: ${f(j.host_ms, 3)} ms (p25 ${f(j.host_ms_p25, 3)}, p75 ${f(j.host_ms_p75, 3)}, min ${f(j.host_ms_min, 3)})${j.per_run_step ? ` per run-step of ${j.runs}` : ''}; ${j.dispatches} dispatches, ${j.submits} submits; wasm→JS ${f(j.wasm_to_js, 0)}, JS→wasm ${f(j.js_to_wasm, 0)} per call`,
    );
if (args.includes('--host-only')) {
  console.log(JSON.stringify(r));
  process.exit(0);
}
e(
  `toy step   (${JSON.stringify(r.toy_config)}): CPU 1t ${f(r.toy.cpu_st_ms)} ms, CPU ${r.cpu_threads ?? '-'}t ${f(r.toy.cpu_mt_ms)} ms, WebGPU ${f(r.toy.gpu_ms)} ms; ${f(r.toy.gpu_dispatches, 0)} dispatches, ${f(r.toy.gpu_submits, 1)} submits per step`,
);
e(
  `probe pass (${JSON.stringify(r.probe_config)}): CPU 1t ${f(r.probe.cpu_st_ms)} ms, CPU ${r.cpu_threads ?? '-'}t ${f(r.probe.cpu_mt_ms)} ms, WebGPU ${f(r.probe.gpu_ms)} ms; ${f(r.probe.gpu_dispatches, 0)} dispatches per pass`,
);
for (const m of r.matmul)
  e(`matmul ${m.model.padEnd(5)} ${m.op.padEnd(36)} ${`${m.M}×${m.N}×${m.K}`.padEnd(14)} ${m.vec4 ? 'vec4  ' : 'scalar'} ${f(m.gflops, 2)} GFLOP/s`);
console.log(JSON.stringify(r));
