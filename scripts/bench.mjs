#!/usr/bin/env node
// bench.mjs — `npm run bench`: measures speed and writes docs/benchmarks.json and docs/benchmarks.md
// (machine and date included). Sections, each optional (--only a,b,c; default all):
//   gemm    GEMM GFLOP/s at the model's shapes: native, wasm 1 thread, wasm 2 threads (bench/gemm_bench)
//   step    seconds per toy training step: native 1/2 threads, wasm st (1) and mt (2) under Node
//   probe   the full `lnx probe` (all seeds, all depths): native 1/2 threads, wasm 1/2 threads
//   grid    the full 16-run toy grid: native 2 threads, wasm 1 and 2 threads, PyTorch 2 threads
//   composer  the placement composer's redraw at init (one init-profile call for a composed placement,
//           web/src/lib/composer.ts): wasm st 1 thread and mt 2 threads under Node, against its 1 s target
//   profile where a toy step's time goes, op by op (bench/step_profile.cpp, the engine built with
//           wasm/profile.h's counters): native 1 thread, wasm st 1 thread, wasm mt 2 threads, at the
//           article's toy and at the quick look; GEMM's share of the step and the SIMD128 limit
//   page    the browser: time to all four figures drawn, transfer sizes (needs dist/ and Chromium);
//           --page-grid also times the full Figure 4 grid in the browser (threaded build)
//   mainthread  the page's main thread after its first paint, 4x CPU throttle, phone width, both
//           languages: longest task and total blocking time (bench/mainthread_bench.mjs)
//   webgpu  headless Chromium (bench/webgpu_bench.mjs): ms per toy step and probe pass on WebGPU and
//           the CPU builds, WGSL matmul GFLOP/s, dispatches per step; --gpu-flags "…" adds Chromium
//           flags (e.g. "--use-vulkan --enable-features=Vulkan" on a GPU machine), --gpu-full forces
//           the full-size probe model on a software adapter
// docs/benchmarks.md also shows the last record of scripts/gpu-check.sh (bench/gpu-check.json, else
// build/gpu-check.json) without rerunning it. Results of earlier runs are kept for the sections not rerun, so a long section can be measured on
// its own. Timings are wall clock on a machine that may be shared: compare within one run.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const onlyArg = args.find((a) => a.startsWith('--only='))?.slice(7) ?? (args.includes('--only') ? args[args.indexOf('--only') + 1] : null);
// --only none: rewrite docs/benchmarks.md from docs/benchmarks.json without measuring.
const sections =
  onlyArg === 'none' ? [] : onlyArg ? onlyArg.split(',') : ['gemm', 'step', 'profile', 'probe', 'grid', 'composer', 'page', 'mainthread', 'webgpu'];
/** The composer's engine call for a composed placement (CompleteP's multiplier on Pre-LN; the
 *  composer's defaults otherwise), and its target. */
const COMPOSER_CFG = {
  placements: ['composed'],
  placement_spec: {
    name: 'composed',
    attention: { norm_input: true },
    ffn: { norm_input: true },
    final_norm: true,
    residual_scale: { kind: 'completep', L_base: 2, a: 1 },
  },
};
const COMPOSER_TARGET_S = 1;
const jsonPath = `${root}docs/benchmarks.json`;
const results = existsSync(jsonPath) ? JSON.parse(readFileSync(jsonPath, 'utf8')) : {};
const sh = (cmd, a, opts = {}) => execFileSync(cmd, a, { encoding: 'utf8', maxBuffer: 1 << 28, cwd: root, ...opts });
const log = (s) => process.stderr.write(`bench: ${s}\n`);

function machine() {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    cpu = sh('lscpu', [])
      .match(/Model name:\s*(.*)/)[1]
      .trim();
  } catch {
    /* no lscpu: the model stays unknown */
  }
  const ver = (cmd, a) => {
    try {
      return sh(cmd, a).split('\n')[0].trim();
    } catch {
      return 'not found';
    }
  };
  return {
    date: new Date().toISOString(),
    cpu,
    cores: os.cpus().length,
    memory_gib: Math.round(os.totalmem() / 2 ** 30),
    load_average_at_start: os.loadavg().map((x) => Math.round(x * 10) / 10),
    node: process.version,
    gxx: ver('g++', ['--version']),
    emcc: ver('em++', ['--version']),
  };
}

const time = (fn) => {
  const t0 = performance.now();
  fn();
  return (performance.now() - t0) / 1000;
};
const lnx = (a) => sh(`${root}build/lnx`, a);
const wasm = (flavour, threads, job, cfg) =>
  JSON.parse(
    sh('node', [`${root}bench/wasm_runner.mjs`, flavour, String(threads), job, JSON.stringify(cfg)])
      .trim()
      .split('\n')
      .pop(),
  );

const STEP_CFG = { steps: 43, short: 3 };

// PyTorch's fairest environment on this machine (bench/toy_torch.py): OpenBLAS's fastest kernel set
// for this CPU, chosen by timing 10 steps with each candidate. Its own detection is not always the
// best: a VM's CPU model can be unknown to it (here it fell back to "Prescott", SSE3 kernels, 3×
// slower than "Cooperlake"), and some environments pin OPENBLAS_CORETYPE. Memoised; null without torch.
let torchEnvMemo;
function torchEnv() {
  if (torchEnvMemo !== undefined) return torchEnvMemo;
  try {
    sh('/usr/bin/python3', ['-c', 'import torch']);
  } catch {
    return (torchEnvMemo = null);
  }
  const trials = [];
  for (const core of [null, 'Cooperlake', 'SkylakeX', 'Haswell', 'Zen']) {
    const env = { ...process.env, OPENBLAS_VERBOSE: '2' };
    if (core) env.OPENBLAS_CORETYPE = core;
    else delete env.OPENBLAS_CORETYPE;
    const r = spawnSync('/usr/bin/python3', [`${root}bench/toy_torch.py`, '--norm', 'pre', '--steps', '10', '--threads', '1', '--blas-threads', '1'], {
      env,
      encoding: 'utf8',
    });
    if (r.status !== 0) continue; // a kernel set this CPU cannot run
    const got = (r.stderr.match(/Core: (\w+)/) ?? [])[1] ?? core ?? 'auto';
    trials.push({ env, core: got, asked: core ?? 'auto', sec: JSON.parse(r.stdout.trim().split('\n').pop()).seconds_per_step });
  }
  trials.sort((a, b) => a.sec - b.sec);
  log(`PyTorch: OpenBLAS kernel sets ${trials.map((t) => `${t.asked}→${t.core} ${t.sec.toFixed(3)} s/step`).join(', ')}; using ${trials[0]?.core}`);
  return (torchEnvMemo = trials[0] ? { env: trials[0].env, core: trials[0].core, trials: trials.map(({ asked, core, sec }) => ({ asked, core, sec })) } : null);
}

// The two models the per-op profile looks at (bench/step_profile.cpp reads a TrainConfig).
const PROFILE_MODELS = [
  { key: 'toy', what: "the article's toy: Pre-LN, 8 layers, d = 128, d_ff = 512, 8 × 64 tokens", cfg: { placement: 'pre' }, steps: 15 },
  {
    key: 'quick',
    what: 'the quick look: Post-LN, 6 layers, d = 128, d_ff = 512, 2 × 32 tokens',
    cfg: { placement: 'post', layers: 6, batch: 2, seq: 32 },
    steps: 60,
  },
];
// Matrix-product flops of one training step (forward, then backward at twice the forward: dx and dW
// for every product). Per token and layer: q, k, v (3d²) and the FFN (2·d·d_ff) as multiply-adds,
// and attention's two n×n×d products; then the logits (d·V).
function stepFlops({ layers = 8, d = 128, d_ff = 512, vocab = 256, batch = 8, seq = 64 }) {
  const perToken = layers * (2 * (3 * d * d + 2 * d * d_ff) + 4 * seq * d) + 2 * d * vocab;
  return 3 * perToken * batch * seq;
}
// The clock the SIMD128 limit is quoted at: measured now by `step_profile clock` (a chain of
// dependent adds; a VM's /proc/cpuinfo often shows the nominal clock), else what the kernel reports.
function clockGHz() {
  try {
    return { ghz: JSON.parse(sh(`${root}build/step_profile`, ['clock'])).clock_ghz, how: 'measured (a chain of dependent adds, `step_profile clock`)' };
  } catch {
    /* absent here: left out */
  }
  try {
    const mhz = readFileSync('/proc/cpuinfo', 'utf8').match(/cpu MHz\s*:\s*([\d.]+)/);
    if (mhz) return { ghz: Number(mhz[1]) / 1000, how: 'that /proc/cpuinfo reports' };
  } catch {
    /* absent here: left out */
  }
  return { ghz: null, how: null };
}

const run = {
  gemm() {
    const out = {};
    log('gemm: native');
    out.native = sh(`${root}build/gemm_bench`, ['bench']);
    log('gemm: building the wasm benchmarks');
    sh('bash', [`${root}scripts/build-wasm.sh`], { env: { ...process.env, EXTRA_TARGETS: 'gemm_bench-st gemm_bench-mt gemm_bench_fma-st gemm_bench_fma-mt' } });
    log('gemm: wasm 1 thread');
    out.wasm_st = sh('node', ['--no-experimental-fetch', `${root}build-wasm/gemm_bench-st.js`, 'bench']);
    log('gemm: wasm 2 threads');
    out.wasm_mt = sh('node', ['--no-experimental-fetch', `${root}build-wasm/gemm_bench-mt.js`, 'bench', 'threads=2']);
    // The FMA flavour's kernel with its fused multiply-adds, at the toy's shapes (Node 20: behind a flag)
    const fma = ['--no-experimental-fetch', '--experimental-wasm-relaxed-simd'];
    log('gemm: wasm FMA flavour, 1 thread');
    out.wasm_st_fma = sh('node', [...fma, `${root}build-wasm/gemm_bench_fma-st.js`, 'bench', 'only=toy', 'fma']);
    log('gemm: wasm FMA flavour, 2 threads');
    out.wasm_mt_fma = sh('node', [...fma, `${root}build-wasm/gemm_bench_fma-mt.js`, 'bench', 'only=toy', 'threads=2', 'fma']);
    return out;
  },
  step() {
    // Each number is the median of 3 measurements (the machine may be shared).
    const median3 = (fn) => [fn(), fn(), fn()].sort((a, b) => a - b)[1];
    const out = {};
    // Native: the difference of a long and a short run, so process start and model set-up cancel.
    for (const t of [1, 2]) {
      log(`step: native ${t} thread(s)`);
      const run = (n) => time(() => lnx(['train', '--placement', 'pre', '--steps', String(n), '--threads', String(t), '--json']));
      out[`native_${t}t`] = median3(() => (run(STEP_CFG.steps) - run(STEP_CFG.short)) / (STEP_CFG.steps - STEP_CFG.short));
    }
    // wasm: wasm_runner times the steps after three untimed ones.
    for (const [flavour, t] of [
      ['st', 1],
      ['mt', 1],
      ['mt', 2],
      ['st-fma', 1],
      ['mt-fma', 2],
    ]) {
      log(`step: wasm-${flavour} ${t} thread(s)`);
      out[`wasm_${flavour.replace('-', '_')}_${t}t`] = median3(() => wasm(flavour, t, 'train', { placement: 'pre', steps: STEP_CFG.steps }).seconds_per_step);
    }
    // The ceiling on this machine: two independent single-threaded processes at once (no sharing,
    // no synchronisation) slow each other down through the shared core resources and memory.
    log('step: two wasm-st processes at once');
    const pair = JSON.parse(
      sh('node', [
        '-e',
        `
      const { execFile } = require('node:child_process');
      const one = () => new Promise((ok, no) => execFile('node', [${JSON.stringify(`${root}bench/wasm_runner.mjs`)}, 'st', '1', 'train', '{"placement":"pre","steps":${STEP_CFG.steps}}'], (e, so) => e ? no(e) : ok(JSON.parse(so.trim().split('\\n').pop()).seconds_per_step)));
      Promise.all([one(), one()]).then((r) => console.log(JSON.stringify(r)));`,
      ]).trim(),
    );
    out.wasm_st_two_processes = (pair[0] + pair[1]) / 2;
    // PyTorch's step, the same model and step (bench/toy_torch.py), in this run: torch 1 thread with
    // OpenBLAS at 1 and at 2 threads (OpenBLAS picks its own kernels, as in the grid section).
    const te = torchEnv();
    if (te) {
      const env = te.env;
      const torchSec = (blas, steps) =>
        JSON.parse(
          sh('/usr/bin/python3', [`${root}bench/toy_torch.py`, '--norm', 'pre', '--steps', String(steps), '--threads', '1', '--blas-threads', String(blas)], {
            env,
          })
            .trim()
            .split('\n')
            .pop(),
        );
      for (const t of [1, 2]) {
        log(`step: PyTorch, torch 1 thread + OpenBLAS ${t}`);
        out[`pytorch_${t}t`] = median3(() => (torchSec(t, STEP_CFG.steps).seconds - torchSec(t, STEP_CFG.short).seconds) / (STEP_CFG.steps - STEP_CFG.short));
      }
      out.pytorch_version = torchSec(1, 1).torch;
      out.pytorch_openblas_core = te.core;
    } else {
      out.pytorch_skipped = 'python3-torch is not installed (apt-get install python3-torch libopenblas0-pthread)';
    }
    return out;
  },
  profile() {
    log('profile: building bench/step_profile (native and wasm)');
    sh('cmake', ['--build', `${root}build`, '--target', 'step_profile', '-j2']);
    sh('bash', [`${root}scripts/build-wasm.sh`], { env: { ...process.env, EXTRA_TARGETS: 'step_profile-st step_profile-mt' } });
    const prog = {
      native: (a) => [`${root}build/step_profile`, a],
      'wasm-st': (a) => ['node', ['--no-experimental-fetch', `${root}build-wasm/step_profile-st.js`, ...a]],
      'wasm-mt': (a) => ['node', ['--no-experimental-fetch', `${root}build-wasm/step_profile-mt.js`, ...a]],
    };
    const clock = clockGHz();
    const out = { clock_ghz: clock.ghz, clock_how: clock.how, models: {} };
    for (const m of PROFILE_MODELS) {
      const runs = {};
      for (const [build, threads] of [
        ['native', 1],
        ['wasm-st', 1],
        ['wasm-mt', 2],
      ]) {
        log(`profile: ${m.key}, ${build}, ${threads} thread(s)`);
        const a = [`threads=${threads}`, `steps=${m.steps}`, 'warm=3', JSON.stringify(m.cfg)];
        const [cmd, argv] = prog[build](a);
        // The median of 3 by step time (the machine may be shared).
        const three = [0, 1, 2].map(() => JSON.parse(sh(cmd, argv).trim().split('\n').pop())).sort((x, y) => x.seconds_per_step - y.seconds_per_step);
        runs[`${build}_${threads}t`] = three[1];
      }
      out.models[m.key] = { what: m.what, config: m.cfg, flops_per_step: stepFlops(m.cfg), runs };
    }
    return out;
  },
  probe() {
    const out = {};
    for (const t of [1, 2]) {
      log(`probe: native ${t} thread(s) (full)`);
      out[`native_${t}t`] = time(() => lnx(['probe', '--threads', String(t), '--json']));
    }
    for (const [flavour, t] of [
      ['st', 1],
      ['mt', 2],
    ]) {
      log(`probe: wasm-${flavour} ${t} thread(s) (full)`);
      out[`wasm_${flavour}_${t}t`] = wasm(flavour, t, 'probe', {}).seconds;
    }
    return out;
  },
  composer() {
    const out = {};
    for (const [flavour, t] of [
      ['st', 1],
      ['mt', 2],
    ]) {
      log(`composer: wasm-${flavour} ${t} thread(s), one init-profile call`);
      const r = wasm(flavour, t, 'composer', COMPOSER_CFG);
      out[`wasm_${flavour}_${t}t`] = r.seconds;
      out[`wasm_${flavour}_${t}t_first`] = r.first;
      out[`wasm_${flavour}_${t}t_times`] = r.times;
    }
    return out;
  },
  async grid() {
    const out = {};
    log('grid: native 2 threads (full)');
    out.native_2t = time(() => lnx(['grid', '--threads', '2', '--json']));
    for (const [flavour, t] of [
      ['st', 1],
      ['mt', 2],
    ]) {
      log(`grid: wasm-${flavour} ${t} thread(s) (full)`);
      out[`wasm_${flavour}_${t}t`] = wasm(flavour, t, 'grid', {}).seconds;
    }
    const te = torchEnv();
    if (!te) {
      out.pytorch = { skipped: 'python3-torch is not installed (apt-get install python3-torch libopenblas0-pthread)' };
      return out;
    }
    // The fairest PyTorch we found on this machine: OpenBLAS's fastest kernel set (torchEnv), and
    // threads not oversubscribed. Two ways to use 2 cores: one process (torch 1 thread, OpenBLAS 2),
    // or two processes of 1 + 1 thread, each on half of the grid (what the engine's grid does).
    const env = te.env;
    const torchRun = (a) =>
      new Promise((ok, no) => {
        execFile('/usr/bin/python3', [`${root}bench/toy_torch.py`, '--grid', ...a], { env, maxBuffer: 1 << 24 }, (e, so, se) =>
          e ? no(e) : ok({ ...JSON.parse(so.trim().split('\n').pop()), core: (se.match(/Core: (\w+)/) ?? [])[1] ?? null }),
        );
      });
    log('grid: PyTorch, one process, torch 1 thread + OpenBLAS 2 (full)');
    const one = await torchRun(['--threads', '1', '--blas-threads', '2']);
    log('grid: PyTorch, two processes of 1 thread, half of the grid each (full)');
    const t0 = performance.now();
    const halves = await Promise.all([0, 1].map((i) => torchRun(['--threads', '1', '--blas-threads', '1', '--part', `${i}/2`])));
    const two = (performance.now() - t0) / 1000;
    out.pytorch_1proc_2t = one.seconds;
    out.pytorch_2proc_1t = two;
    out.pytorch_2t = Math.min(one.seconds, two);
    out.pytorch = {
      torch: one.torch,
      blas: one.blas,
      openblas_core: one.core,
      seconds_per_step_1proc: one.seconds_per_step,
      final_losses_1proc: one.final_losses,
      halves: halves.map((h) => h.seconds),
    };
    return out;
  },
  mainthread() {
    log('mainthread: headless Chromium, 4x CPU throttle, phone width (bench/mainthread_bench.mjs)');
    return JSON.parse(
      sh('node', [`${root}bench/mainthread_bench.mjs`])
        .trim()
        .split('\n')
        .pop(),
    );
  },
  page() {
    if (!existsSync(`${root}dist/index.html`)) return { skipped: 'dist/ missing: run npx vite build first' };
    log('page: headless Chromium');
    return JSON.parse(
      sh('node', [`${root}bench/page_bench.mjs`, ...(args.includes('--page-grid') ? ['--grid'] : [])])
        .trim()
        .split('\n')
        .pop(),
    );
  },
  webgpu() {
    log('webgpu: headless Chromium (bench/webgpu_bench.mjs)');
    const a = [];
    if (args.includes('--gpu-flags')) a.push('--flags', args[args.indexOf('--gpu-flags') + 1]);
    if (args.includes('--gpu-full')) a.push('--full');
    try {
      return JSON.parse(
        sh('node', [`${root}bench/webgpu_bench.mjs`, ...a], { stdio: ['ignore', 'pipe', 'inherit'] })
          .trim()
          .split('\n')
          .pop(),
      );
    } catch (e) {
      return { skipped: `bench/webgpu_bench.mjs failed: ${String(e.message).split('\n')[0]}` };
    }
  },
};

if (sections.length || !results.machine) results.machine = machine();
for (const s of sections) {
  if (!run[s]) throw new Error(`unknown section ${s}`);
  const prev = results[s];
  results[s] = { measured: new Date().toISOString(), ...(await run[s]()), load_average_after: os.loadavg().map((x) => Math.round(x * 10) / 10) };
  // the page's full grid takes ten minutes and is timed only with --page-grid: a page run without it
  // keeps the last one, with its own date
  if (s === 'page' && results.page.grid_seconds == null && prev?.grid_seconds != null) {
    for (const k of ['grid_seconds', 'grid_flavour', 'grid_threads']) results.page[k] = prev[k];
    results.page.grid_measured = prev.grid_measured ?? prev.measured;
  }
  writeFileSync(jsonPath, JSON.stringify(results, null, 1) + '\n');
}

// ---- docs/benchmarks.md ----
const f = (x, d = 2) => (typeof x === 'number' ? x.toFixed(d) : '—');
// When a section was measured, and how busy the machine was when it finished (1-minute load average).
const when = (r) => `measured ${r.measured.slice(0, 16)}Z${r.load_average_after ? `, load average ${r.load_average_after[0]} at the end` : ''}`;
const md = [];
const m = results.machine;
md.push('# Benchmarks', '', 'Generated by `npm run bench` (scripts/bench.mjs); raw numbers in `docs/benchmarks.json`. Do not edit by hand.', '');
md.push(
  `Machine: ${m.cpu}, ${m.cores} cores, ${m.memory_gib} GiB; load average at start ${m.load_average_at_start.join(' / ')}; Node ${m.node}; ${m.gxx}; ${m.emcc}. Last run ${m.date.slice(0, 16)}Z.`,
  '',
);
md.push('Wall-clock times on a 2-core VM that other jobs may share; each section records when it was measured.', '');
if (results.step) {
  const s = results.step;
  md.push(
    `## Seconds per toy training step (${when(s)})`,
    '',
    '8 layers, d = 128, d_ff = 512, 8 × 64 tokens, Pre-LN, forward + backward + Adam, 40 timed steps, median of 3 measurements. With two or more threads one run computes its two half-batches on two threads at once (wasm/trainer.cpp); the curve is bit-identical for any thread count. Target: 2 threads ≥ 1.6× faster than 1.',
    '',
  );
  md.push('| build | threads | s / step |', '|---|---|---|');
  md.push(
    `| native | 1 | ${f(s.native_1t, 3)} |`,
    `| native | 2 | ${f(s.native_2t, 3)} |`,
    `| wasm single-threaded build (Node) | 1 | ${f(s.wasm_st_1t, 3)} |`,
  );
  if (s.wasm_mt_1t) md.push(`| wasm threaded build (Node) | 1 | ${f(s.wasm_mt_1t, 3)} |`);
  md.push(`| wasm threaded build (Node) | 2 | ${f(s.wasm_mt_2t, 3)} |`);
  if (s.wasm_st_fma_1t)
    md.push(
      `| wasm FMA flavour, fused kernel on (Node) | 1 | ${f(s.wasm_st_fma_1t, 3)} |`,
      `| wasm threaded FMA flavour, fused kernel on (Node) | 2 | ${f(s.wasm_mt_fma_2t, 3)} |`,
    );
  if (s.pytorch_1t)
    md.push(
      `| PyTorch ${s.pytorch_version} (torch 1 thread + OpenBLAS 1, ${s.pytorch_openblas_core} kernels) | 1 | ${f(s.pytorch_1t, 3)} |`,
      `| PyTorch ${s.pytorch_version} (torch 1 thread + OpenBLAS 2) | 2 | ${f(s.pytorch_2t, 3)} |`,
    );
  else if (s.pytorch_skipped) md.push(`| PyTorch | — | ${s.pytorch_skipped} |`);
  const wasm1 = s.wasm_mt_1t ?? s.wasm_st_1t;
  md.push('', `Speed-up from 2 threads: native ${f(s.native_1t / s.native_2t)}×, wasm ${f(wasm1 / s.wasm_mt_2t)}× (threaded build, 1 vs 2 threads).`);
  if (s.pytorch_1t)
    md.push(
      '',
      `Native against PyTorch in this run (target, issue 13: at or below): ${f(s.native_1t / s.pytorch_1t, 2)}× PyTorch's time on 1 thread, ${f(s.native_2t / s.pytorch_2t, 2)}× on 2 (${s.native_1t <= s.pytorch_1t && s.native_2t <= s.pytorch_2t ? 'met' : 'not met'}).`,
    );
  if (s.wasm_st_fma_1t)
    md.push(
      '',
      `The FMA flavour (f32x4.relaxed_madd in the GEMM kernel; its last bits depend on the CPU, so the page uses it only for runs that do not reproduce a precomputed document): ${f(s.wasm_st_1t / s.wasm_st_fma_1t, 2)}× the plain build's speed on 1 thread, ${f(s.wasm_mt_2t / s.wasm_mt_fma_2t, 2)}× on 2 (no gain expected on AMD Zen, whose separate add pipes already keep mul+add at the 128-bit peak).`,
    );
  if (s.wasm_st_two_processes)
    md.push(
      '',
      `Ceiling on this machine: two independent single-threaded wasm processes run at ${f(s.wasm_st_two_processes, 3)} s / step each when they run at the same time, against ${f(s.wasm_st_1t, 3)} alone, so two cores give at most ${f((2 * s.wasm_st_1t) / s.wasm_st_two_processes)}× here whatever the engine does.`,
    );
  md.push('');
}
if (results.profile) {
  const pr = results.profile;
  const ghz = pr.clock_ghz;
  md.push(`## Where a step's time goes, op by op (${when(pr)})`, '');
  md.push(
    "From `bench/step_profile.cpp`: the engine built again with the counters of `wasm/profile.h` (the page's engine has none), 3 untimed steps, then the median of 3 measurements by step time. " +
      "Times are exclusive (a matrix product inside attention counts as `gemm`, the rest of attention as `attention_forward`); with 2 threads the table is the main thread's half-batch, and `unprofiled` holds its wait for the other half. " +
      `SIMD128 limit: 16 flop per cycle per core${ghz ? ` at the clock ${pr.clock_how ?? 'the kernel reports'}, ${f(ghz)} GHz: ${f(16 * ghz, 0)} GFLOP/s per thread` : ''}. Target (issue 13): GEMM ≥ 85% of the wasm step on 1 and on 2 threads.`,
    '',
  );
  for (const m of Object.values(pr.models)) {
    const cols = Object.entries(m.runs);
    const ops = [...new Set(cols.flatMap(([, r]) => r.ops.map((o) => o.op)))];
    const ms = (r, op) => r.ops.find((o) => o.op === op)?.seconds_per_step ?? 0;
    ops.sort((a, b) => ms(cols[1][1], b) - ms(cols[1][1], a));
    md.push(`### ${m.what[0].toUpperCase()}${m.what.slice(1)}`, '');
    md.push(
      `| op | ${cols.map(([k, r]) => `${k.replace(/_(\d)t$/, ', $1 thread' + (r.threads > 1 ? 's' : ''))} ms (share)`).join(' | ')} |`,
      `|---|${cols.map(() => '---|').join('')}`,
    );
    for (const op of ops)
      md.push(`| ${op} | ${cols.map(([, r]) => `${f(1000 * ms(r, op), 3)} (${f((100 * ms(r, op)) / r.seconds_per_step, 1)}%)`).join(' | ')} |`);
    md.push(`| **step** | ${cols.map(([, r]) => `**${f(1000 * r.seconds_per_step, 2)}**`).join(' | ')} |`, '');
    const gemmLine = cols
      .map(([k, r]) => {
        const g = ms(r, 'gemm'),
          rate = m.flops_per_step / (r.threads > 1 ? 2 : 1) / g / 1e9;
        return `${k.replace('_', ' ')}: GEMM ${f((100 * g) / r.seconds_per_step, 0)}% of the step, ${f(rate, 1)} GFLOP/s${ghz && k.startsWith('wasm') ? ` (${f((100 * rate) / (16 * ghz), 0)}% of the SIMD128 limit)` : ''}`;
      })
      .join('; ');
    md.push(`${f(m.flops_per_step / 1e9, 3)} GFLOP of matrix products per step. ${gemmLine}.`, '');
  }
}
if (results.probe) {
  const p = results.probe;
  md.push(
    `## Full probe (${when(p)})`,
    '',
    "`lnx probe` with the article's configuration: both placements, 5 seeds × 20 batches at 6 layers, and 5 seeds × 10 batches at each of 6, 8, 10, 12, 14 layers.",
    '',
  );
  md.push('| build | threads | seconds |', '|---|---|---|');
  md.push(
    `| native | 1 | ${f(p.native_1t, 1)} |`,
    `| native | 2 | ${f(p.native_2t, 1)} |`,
    `| wasm (Node) | 1 | ${f(p.wasm_st_1t, 1)} |`,
    `| wasm (Node) | 2 | ${f(p.wasm_mt_2t, 1)} |`,
    '',
  );
}
if (results.composer) {
  const c = results.composer;
  md.push(
    `## The placement composer's redraw (${when(c)})`,
    '',
    "One `init-profile` call for a composed placement (Pre-LN with CompleteP's multiplier) at the composer's size (L = 6, d = 32, d_ff = 128, V = 64, n = 16, B = 4; 3 seeds, 4 batches per seed per layer and per depth of 2, 4, 6, 8, 12, 16; the output's sensitivity at the same depths): what the page computes on every change of the spec. Median of 5 calls after one untimed call; the first call of a fresh module beside it.",
    '',
  );
  md.push('| build | threads | median s | first call s | target |', '|---|---|---|---|---|');
  for (const [k, label, t] of [
    ['wasm_st_1t', 'wasm single-threaded (Node)', 1],
    ['wasm_mt_2t', 'wasm threaded (Node)', 2],
  ])
    md.push(`| ${label} | ${t} | ${f(c[k], 3)} | ${f(c[`${k}_first`], 3)} | ≤ ${COMPOSER_TARGET_S} s: ${c[k] <= COMPOSER_TARGET_S ? 'met' : 'not met'} |`);
  md.push('');
}
if (results.grid) {
  const g = results.grid;
  md.push(`## Full toy grid, 16 runs × 500 steps (${when(g)})`, '');
  md.push('| build | threads | seconds |', '|---|---|---|');
  md.push(`| native | 2 | ${f(g.native_2t, 1)} |`, `| wasm (Node) | 1 | ${f(g.wasm_st_1t, 1)} |`, `| wasm (Node) | 2 | ${f(g.wasm_mt_2t, 1)} |`);
  if (g.pytorch_1proc_2t) {
    md.push(`| PyTorch ${g.pytorch.torch}, one process (torch 1 thread + OpenBLAS 2) | 2 | ${f(g.pytorch_1proc_2t, 1)} |`);
    md.push(`| PyTorch ${g.pytorch.torch}, two processes of 1 thread, half of the grid each | 2 | ${f(g.pytorch_2proc_1t, 1)} |`, '');
    md.push(
      `PyTorch BLAS (the library mapped into the process): ${g.pytorch.blas}; OpenBLAS kernel set: ${g.pytorch.openblas_core ?? 'not reported'}. ` +
        "Its RNG differs from the engine's, so its curves are statistically alike, not identical; only the wall time is compared.",
      '',
    );
  } else md.push(`| PyTorch | 2 | ${g.pytorch_2t ? f(g.pytorch_2t, 1) : (g.pytorch?.skipped ?? '—')} |`, '');
  if (g.pytorch_2t && g.wasm_mt_2t) {
    md.push(
      `Target "the grid in wasm with 2 threads faster than PyTorch with 2 threads": ${g.wasm_mt_2t < g.pytorch_2t ? 'met' : 'not met'} (${f(g.wasm_mt_2t, 0)} s vs PyTorch's faster way, ${f(g.pytorch_2t, 0)} s).`,
      '',
    );
    if (g.wasm_mt_2t >= g.pytorch_2t) {
      // Why, in numbers: one toy step is 4.93 GFLOP of matrix products (forward 1.64, backward twice that).
      const steps = 16 * 500,
        flop = 4.93e9,
        perProc = g.pytorch_2proc_1t ? (2 * g.pytorch_2proc_1t) / steps : null;
      md.push(
        'Why not: a toy step is 4.93 GFLOP of matrix products. ' +
          (perProc
            ? `PyTorch on one core does a step in ${f(perProc, 3)} s (${f(flop / perProc / 1e9, 0)} GFLOP/s effective, OpenBLAS's AVX-512 kernels with FMA). `
            : '') +
          "WebAssembly here has 128-bit SIMD and no FMA: the engine's SIMD128 kernel runs the toy's GEMMs at 37–52 GFLOP/s per core (GEMM section), near that " +
          "instruction set's peak on this core (two 4-wide multiplies and two 4-wide adds per cycle: 16 flop per cycle, ~48 GFLOP/s at ~3 GHz), so the matrix products alone take ≥ 0.1 s per step per core. " +
          "With this instruction set no wasm build can reach PyTorch's time here; the native build of the same engine, with AVX-512, is within " +
          `${f(g.native_2t / g.pytorch_2t)}× of it.`,
        '',
      );
    }
  }
}
if (results.gemm) {
  const g = results.gemm;
  md.push(
    `## GEMM GFLOP/s at the models' shapes (measured ${g.measured.slice(0, 16)}Z)`,
    '',
    "From `bench/gemm_bench` (see bench/README-gemm.md). Target: wasm ≥ 30 GFLOP/s per thread at the toy's shapes.",
    '',
  );
  md.push(
    '### Native',
    '',
    g.native.trim(),
    '',
    '### WebAssembly, 1 thread (Node)',
    '',
    g.wasm_st.trim(),
    '',
    '### WebAssembly, 2 threads (Node)',
    '',
    g.wasm_mt.trim(),
    '',
  );
  if (g.wasm_st_fma) {
    // the auto-dispatch column (the engine's own choice) of each toy shape, plain and fused
    const auto = (text) => new Map([...text.matchAll(/^\| toy \| ([^|]+) \| \w+ \| [^|]+ \| ([\d.]+) \|/gm)].map((r) => [r[1].trim(), Number(r[2])]));
    const rows = (plain, fused) => {
      const a = auto(plain),
        b = auto(fused);
      const out = [...a].filter(([k]) => b.has(k)).map(([k, v]) => [k, v, b.get(k), b.get(k) / v]);
      const ratios = out.map((r) => r[3]).sort((x, y) => x - y);
      return { out, median: ratios[Math.floor(ratios.length / 2)] };
    };
    const one = rows(g.wasm_st, g.wasm_st_fma),
      two = rows(g.wasm_mt, g.wasm_mt_fma);
    md.push("### The FMA flavour at the toy's shapes (Node; fused kernel on against the plain build, auto dispatch)", '');
    md.push('| matmul | plain 1t | FMA 1t | gain | plain 2t | FMA 2t | gain |', '|---|---|---|---|---|---|---|');
    for (const [k, p1, q1, r1] of one.out) {
      const t = two.out.find((r) => r[0] === k);
      md.push(`| ${k} | ${f(p1, 1)} | ${f(q1, 1)} | ${f(r1, 2)}× | ${t ? f(t[1], 1) : '—'} | ${t ? f(t[2], 1) : '—'} | ${t ? f(t[3], 2) + '×' : '—'} |`);
    }
    md.push('', `Median gain: ${f(one.median, 2)}× on 1 thread, ${f(two.median, 2)}× on 2.`, '');
  }
}
if (results.page) {
  const p = results.page;
  md.push(`## The page in headless Chromium (measured ${p.measured?.slice(0, 16) ?? '—'}Z)`, '');
  if (p.skipped) md.push(p.skipped, '');
  else {
    if (p.figures_drawn_ms != null) {
      const met = p.figures_drawn_ms <= 1500 ? 'met' : 'not met';
      md.push(
        `Navigation to all four figures drawn (preview build, localhost, median of 5): ${f(p.figures_drawn_ms, 0)} ms` +
          (p.prerendered ? ', drawn from the article the build wrote into the page (scripts/prerender.mjs)' : '') +
          `; target (issue 13) ≤ 1500 ms: ${met}. All four live and interactive (data-state "ready"): ${f(p.figures_ready_ms, 0)} ms.`,
        '',
      );
    } else md.push(`Navigation to all four figures drawn (preview build, localhost): ${f(p.figures_ready_ms, 0)} ms.`, '');
    md.push('| asset | raw bytes | gzip bytes |', '|---|---|---|');
    for (const a of p.assets) md.push(`| ${a.name} | ${a.raw} | ${a.gzip} |`);
    md.push('');
    if (p.estimate) {
      const e = p.estimate;
      // an estimate under a second is shown as "under a second" (RunControls.svelte): judged by that
      const verdict = (x) =>
        x.estimate_ms < 1000
          ? x.actual_ms < 1000
            ? 'met (shown as under a second)'
            : 'not met (shown as under a second)'
          : Math.abs(x.error) <= 0.3
            ? 'met'
            : 'not met';
      const row = (x) =>
        `| ${x.what} | ${x.shown ?? ''} | ${f(x.estimate_ms / 1000, 1)} | ${f(x.actual_ms / 1000, 1)} | ${x.error >= 0 ? '+' : ''}${f(100 * x.error, 0)}% | ${verdict(x)} |`;
      md.push(
        `Estimate before compute (the speed learned from ${e.learned_from}; lib/cost.ts, lib/speed.svelte.ts). Target: within 30% (an estimate under a second is shown as such, and is right when the run takes under a second).`,
        '',
      );
      md.push(
        '| run | shown on Recompute | estimate s | took s | error | target |',
        '|---|---|---|---|---|---|',
        ...[e.quick, e.grid, e.probe].filter(Boolean).map(row),
        '',
      );
      if (e.quick)
        md.push(
          `The quick look took ${f(e.quick.actual_ms / 1000, 1)} s in the page (target: ≤ 60 s on 2 cores; ${e.quick.actual_ms <= 60000 ? 'met' : 'not met'}).`,
          '',
        );
    }
    if (p.grid_seconds)
      md.push(
        `Full Figure 4 grid (16 runs × 500 steps) computed in the page${p.grid_measured ? ` (measured ${p.grid_measured.slice(0, 16)}Z, an earlier run: \`--page-grid\` times it again)` : ''}, Recompute in Figure 4 with the default settings, threaded build: ${f(p.grid_seconds, 1)} s (the figure's badge at the end: "${p.grid_flavour}"). The same grid under Node took ${results.grid?.wasm_mt_2t ? f(results.grid.wasm_mt_2t, 0) + ' s' : '—'} with 2 threads (grid section).`,
        '',
      );
  }
}
if (results.mainthread) {
  const m = results.mainthread;
  md.push(`## The main thread after the first paint (measured ${m.measured.slice(0, 16)}Z)`, '');
  md.push(
    `\`bench/mainthread_bench.mjs\`: the built page under vite preview in headless Chromium at phone width (390 × 800), the CPU slowed ${m.throttle}× (as Lighthouse's mobile preset; the network is not slowed), median of 3 fresh contexts per language. Long tasks (≥ 50 ms) are counted from the first contentful paint to ${m.window_ms / 1000} s after navigation; total blocking time is the sum of each one's time beyond 50 ms over that window. Load average ${m.load_before.toFixed(2)} before, ${m.load_after.toFixed(2)} after, ${m.cores} cores. Targets (issue 31): no task after the first paint over 200 ms; total blocking time ≤ 200 ms.`,
    '',
    '| language | first contentful paint ms | longest task after it ms | tasks over 200 ms | total blocking time ms | targets |',
    '|---|---|---|---|---|---|',
    ...Object.entries(m.languages).map(
      ([lang, r]) =>
        `| ${lang} | ${r.fcp_ms} | ${r.longest_ms} | ${r.over_200} | ${r.tbt_ms} | ${r.longest_ms <= 200 && r.tbt_ms <= 200 ? 'met' : 'not met'} |`,
    ),
    '',
  );
}
if (results.webgpu) {
  const w = results.webgpu;
  md.push(`## WebGPU (measured ${w.measured?.slice(0, 16) ?? '—'}Z)`, '');
  if (w.skipped) md.push(w.skipped, '');
  else {
    const a = w.adapter;
    md.push(
      `Headless Chromium, adapter ${a.vendor} ${a.architecture}${a.description ? ` (${a.description})` : ''}; \`bench/webgpu_bench.mjs\`, docs/webgpu.md.`,
      '',
    );
    if (a.software)
      md.push(
        '**Software adapter**: SwiftShader runs the WGSL kernels on the CPU, far slower than the wasm engine. These numbers are recorded to show the path works end to end; they say nothing about GPU speed. Run the benchmark on a machine with a GPU for that (docs/webgpu.md).',
        '',
      );
    const cfg = (c) => `${c.layers} layers, d = ${c.d}, d_ff = ${c.d_ff}, V = ${c.vocab}, ${c.batch} × ${c.seq} tokens`;
    md.push(
      '| job | model | CPU 1 thread ms | CPU ' + (w.cpu_threads ?? '—') + ' threads ms | WebGPU ms | dispatches | submits |',
      '|---|---|---|---|---|---|---|',
    );
    md.push(
      `| toy step (fwd + bwd + Adam) | ${cfg(w.toy_config)} | ${f(w.toy.cpu_st_ms, 1)} | ${f(w.toy.cpu_mt_ms, 1)} | ${f(w.toy.gpu_ms, 1)} | ${f(w.toy.gpu_dispatches, 0)} | ${f(w.toy.gpu_submits, 1)} |`,
    );
    if (w.toy_batch)
      md.push(
        `| toy step, ${w.toy_batch.runs} runs as one batch (all advance one step) | ${cfg(w.toy_config)} | — | — | ${f(w.toy_batch.ms, 1)} (${f(w.toy_batch.per_run_ms, 1)} per run) | ${f(w.toy_batch.dispatches, 0)} | ${f(w.toy_batch.submits, 1)} |`,
      );
    md.push(
      `| probe pass (fwd + W² bwd + stats) | ${cfg(w.probe_config)} | ${f(w.probe.cpu_st_ms, 1)} | ${f(w.probe.cpu_mt_ms, 1)} | ${f(w.probe.gpu_ms, 1)} | ${f(w.probe.gpu_dispatches, 0)} | ${f(w.probe.gpu_submits, 1)} |`,
      '',
    );
    md.push('WGSL matmul alone (C = op(A)·op(B), timed to queue.onSubmittedWorkDone over repeated dispatches):', '');
    md.push('| model | product | M × N × K | path | GFLOP/s |', '|---|---|---|---|---|');
    for (const m of w.matmul) md.push(`| ${m.model} | ${m.op} | ${m.M} × ${m.N} × ${m.K} | ${m.vec4 ? 'vec4' : 'scalar'} | ${f(m.gflops, 2)} |`);
    md.push('');
  }
}
// scripts/gpu-check.sh's record (Node over Dawn): bench/gpu-check.json when one from a real GPU was
// committed, else the last local run, build/gpu-check.json. Not rerun here (it can take minutes).
{
  const file = [`${root}bench/gpu-check.json`, `${root}build/gpu-check.json`].find((x) => existsSync(x));
  md.push('## WebGPU in Node (`scripts/gpu-check.sh`)', '');
  if (!file) md.push('No record: run `scripts/gpu-check.sh` (docs/webgpu.md, "A real GPU"). **No real GPU has been measured.**', '');
  else {
    const g = JSON.parse(readFileSync(file, 'utf8'));
    const a = g.adapter ?? {};
    md.push(
      `Measured ${g.measured?.slice(0, 16)}Z on ${g.host?.cpu} (${g.host?.cores} cores), ${g.host?.node}; adapter **${a.name ?? '—'}**${a.description ? ` (${a.description})` : ''}, Vulkan driver ${g.vulkan?.driver} (\`${file.slice(root.length)}\`).`,
      '',
    );
    if (g.error) md.push(`The run failed: ${g.error}`, '');
    if (!g.speed_meaningful)
      md.push(
        '**Software adapter (SwiftShader)**: the timings below are the CPU emulating a GPU and say nothing about GPU speed. **No real GPU has been measured.**',
        '',
      );
    const c = g.correctness;
    if (c) md.push(`Correctness against the CPU engine (tests/webgpu/engine-checks.js): ${c.passed} passed, ${c.failed} failed.`, '');
    const sp = g.speed;
    if (sp) {
      md.push(`| job | CPU 1 thread ms | CPU ${sp.cpu_threads ?? '—'} threads ms | WebGPU ms | dispatches | submits |`, '|---|---|---|---|---|---|');
      md.push(
        `| toy step | ${f(sp.toy.cpu_st_ms, 1)} | ${f(sp.toy.cpu_mt_ms, 1)} | ${f(sp.toy.gpu_ms, 1)} | ${f(sp.toy.gpu_dispatches, 0)} | ${f(sp.toy.gpu_submits, 1)} |`,
      );
      if (sp.toy_batch)
        md.push(
          `| toy step, ${sp.toy_batch.runs} runs as one batch | — | — | ${f(sp.toy_batch.ms, 1)} (${f(sp.toy_batch.per_run_ms, 1)} per run) | ${f(sp.toy_batch.dispatches, 0)} | ${f(sp.toy_batch.submits, 1)} |`,
        );
      md.push(
        `| probe pass | ${f(sp.probe.cpu_st_ms, 1)} | ${f(sp.probe.cpu_mt_ms, 1)} | ${f(sp.probe.gpu_ms, 1)} | ${f(sp.probe.gpu_dispatches, 0)} | ${f(sp.probe.gpu_submits, 1)} |`,
        '',
      );
      if (sp.toy_batch?.record_ms != null)
        md.push(
          `The host's part of a step (recording and sending it, before waiting for the GPU): ${f(sp.toy.gpu_record_ms, 2)} ms for one run, ${f(sp.toy_batch.record_ms, 2)} ms for the batch of ${sp.toy_batch.runs}, that is ${f(sp.toy_batch.record_ms / sp.toy_batch.runs, 2)} ms per run.`,
          '',
        );
      md.push(`WGSL matmul GFLOP/s: ${sp.matmul.map((m) => `${m.M}×${m.N}×${m.K} ${f(m.gflops, 2)}`).join(', ')}.`, '');
    }
    const gr = g.grid;
    const bs = gr?.batches ? `, in batches of ${gr.batches.join(', ')}` : '';
    if (gr)
      md.push(
        gr.measured
          ? `Figure 4's grid (${gr.runs} runs × ${gr.steps_per_run} steps, ${gr.concurrent} on the device at once${bs}): ${f(gr.seconds, 1)} s.`
          : `Figure 4's grid (${gr.runs} runs × ${gr.steps_per_run} steps${bs}) was not run: ${gr.why}; estimate from the batched step time ${f(gr.estimate_s, 0)} s${gr.unbatched_estimate_s != null ? ` (one run after another: ${f(gr.unbatched_estimate_s, 0)} s)` : ''}.`,
        '',
      );
  }
}
writeFileSync(`${root}docs/benchmarks.md`, md.join('\n') + '\n');
log('wrote docs/benchmarks.md and docs/benchmarks.json');
