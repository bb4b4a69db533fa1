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
//   phasemap  the trainability map's (fig15) quick map (the phase-diagram slot's small setting): wasm-mt 2 threads under
//           Node, wall and CPU seconds, against its target of 3 minutes on 2 cores
//   page    the browser: time to all four figures drawn, transfer sizes (needs dist/ and Chromium);
//           --page-grid also times the full Figure 4 grid in the browser (threaded build)
//   mainthread  the page's main thread after its first paint, 4x CPU throttle, phone width, both
//           languages: longest task and total blocking time, each figure going live as a reader
//           scrolls to it, three interactions (input to next paint) (bench/mainthread_bench.mjs)
//   bigrun  the same with a run list holding a stored run of 10⁶ loss points: the load, and Figure 4
//           going live with the run, with the CPU estimate (ONLY=bigrun,estimate
//           bench/mainthread_bench.mjs), --samples N times (default 3), each sample kept
//   lighthouse  Lighthouse 12.2.3's Performance, mobile preset (simulated slow 4G, CPU 4×), both
//           languages, median of 3 (bench/lighthouse_bench.mjs)
//   scaling (not in the default set; for a many-core machine) the toy step, a probe of one seed and
//           the grid's first 50 steps at 1, 2, 4, 8 and 16 threads (--threads a,b,…), native and
//           wasm-mt under Node; --against DIR measures a second checkout (its build/lnx, public/wasm
//           and bench/wasm_runner.mjs) at each point too, interleaved: before and after a change,
//           in one sitting; --quick cuts the probe and the grid to a check of the script.
//           `npm run bench:scaling`
//   gpuhost the host's part of a WebGPU step (bench/webgpu_host.mjs, Node over Dawn): ms per step of
//           a run, per run-step of a batch, per probe pass, and the calls between wasm and JavaScript,
//           before (build/gpu-baseline from bench/webgpu_baseline.sh, when present) and after; then
//           the same in headless Chromium's worker, the page's host (bench/webgpu_bench.mjs --host-only)
//   webgpu  headless Chromium (bench/webgpu_bench.mjs): ms per toy step and probe pass on WebGPU and
//           the CPU builds, WGSL matmul GFLOP/s, dispatches per step; --gpu-flags "…" adds Chromium
//           flags (e.g. "--use-vulkan --enable-features=Vulkan" on a GPU machine), --gpu-full forces
//           the full-size probe model on a software adapter
// --baseline=FILE adds a "Before and after" table: the mainthread, bigrun and lighthouse results of
// another build measured in the same sitting (see where it is read below).
// Every section keeps its own record of the machine, its date and its load (`machine` in its
// results), and bench/notes/SECTION.md, where there is one, is written after the section: the
// analyses of earlier sittings, by hand (docs/benchmarks.md itself is only ever written here).
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
  onlyArg === 'none'
    ? []
    : onlyArg
      ? onlyArg.split(',')
      : ['gemm', 'step', 'profile', 'probe', 'grid', 'phasemap', 'composer', 'page', 'mainthread', 'bigrun', 'lighthouse', 'gpuhost', 'webgpu'];
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
/** bench/mainthread_bench.mjs with ONLY=`only`: its JSON line. */
const mainthreadBench = (only) =>
  JSON.parse(
    sh('node', [`${root}bench/mainthread_bench.mjs`], { env: { ...process.env, ONLY: only } })
      .trim()
      .split('\n')
      .pop(),
  );

// The scaling section (issue 32): the thread counts, and the jobs at each, cut so that one thread
// count takes about a minute on one core: the step as the step section measures it; the article's
// probe with one seed of its five (every depth); the article's 16-run grid, its first 50 steps of 500.
const flagValue = (name) =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : null);
// --quick cuts the probe and the grid further (a check of the script, not a measurement to keep).
const SCALING = {
  threads: (flagValue('threads') ?? '1,2,4,8,16').split(',').map(Number),
  probe: args.includes('--quick') ? { seeds: [0], batches: 4, depth_batches: 2 } : { seeds: [0] },
  grid: { steps: args.includes('--quick') ? 10 : 50 },
};
// An engine to measure: this checkout, or the one --against names (the same layout: build/lnx,
// public/wasm, bench/wasm_runner.mjs).
const engineAt = (dir) => ({
  dir,
  lnx: (a) => sh(`${dir}/build/lnx`, a),
  wasm: (threads, job, cfg) =>
    JSON.parse(
      sh('node', [`${dir}/bench/wasm_runner.mjs`, 'mt', String(threads), job, JSON.stringify(cfg)])
        .trim()
        .split('\n')
        .pop(),
    ),
});

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
  async phasemap() {
    // the slot's own small setting (web/src/experiments/phase-diagram.ts), read through the page's registry
    const { loadRegistry } = await import('./registry.mjs');
    const e = (await loadRegistry()).EXPERIMENT_SLOTS.phaseDiagram;
    log(`phasemap: wasm-mt 2 threads, ${JSON.stringify(e.small)}`);
    const r = wasm('mt', 2, `exp:${e.experiment}`, e.small);
    return { config: e.small, wasm_mt_2t: r.seconds, cpu_seconds: r.cpu_seconds, target_seconds: 180 };
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
  scaling() {
    const median3 = (fn) => [fn(), fn(), fn()].sort((a, b) => a - b)[1];
    const engines = { after: engineAt(root.replace(/\/$/, '')) };
    const against = flagValue('against');
    if (against) engines.before = engineAt(against.replace(/\/$/, ''));
    const flags = (cfg) => Object.entries(cfg).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, Array.isArray(v) ? v.join(',') : String(v)]);
    // Each job on an engine, a build and a thread count: seconds (a step, a probe, a grid), and the
    // threads the build actually ran (wasm-mt has at most one worker per core plus the caller).
    const jobs = {
      step: {
        native: (e, t) => {
          const run = (n) => time(() => e.lnx(['train', '--placement', 'pre', '--steps', String(n), '--threads', String(t), '--json']));
          return { seconds: median3(() => (run(STEP_CFG.steps) - run(STEP_CFG.short)) / (STEP_CFG.steps - STEP_CFG.short)), threads: t };
        },
        wasm: (e, t) => {
          let threads = t;
          const seconds = median3(() => {
            const r = e.wasm(t, 'train', { placement: 'pre', steps: STEP_CFG.steps });
            threads = r.threads;
            return r.seconds_per_step;
          });
          return { seconds, threads };
        },
      },
      probe: {
        native: (e, t) => ({ seconds: time(() => e.lnx(['probe', ...flags(SCALING.probe), '--threads', String(t), '--json'])), threads: t }),
        wasm: (e, t) => {
          const r = e.wasm(t, 'probe', SCALING.probe);
          return { seconds: r.seconds, threads: r.threads };
        },
      },
      grid: {
        native: (e, t) => ({ seconds: time(() => e.lnx(['grid', ...flags(SCALING.grid), '--threads', String(t), '--json'])), threads: t }),
        wasm: (e, t) => {
          const r = e.wasm(t, 'grid', SCALING.grid);
          return { seconds: r.seconds, threads: r.threads };
        },
      },
    };
    // each checkout's commit, for the record (a checkout measured with uncommitted changes says so)
    const commit = (dir) => {
      try {
        return sh('git', ['-C', dir, 'describe', '--always', '--dirty']).trim();
      } catch {
        return null;
      }
    };
    const out = {
      machine: machine(),
      threads: SCALING.threads,
      probe_config: SCALING.probe,
      grid_config: SCALING.grid,
      against: against ?? null,
      commits: Object.fromEntries(Object.entries(engines).map(([name, e]) => [name, commit(e.dir)])),
      results: {},
    };
    for (const [job, builds] of Object.entries(jobs))
      for (const [build, measure] of Object.entries(builds))
        for (const t of SCALING.threads)
          for (const [name, e] of Object.entries(engines)) {
            log(`scaling: ${job}, ${build}, ${t} thread(s), ${name}`);
            ((out.results[name] ??= {})[`${job}_${build}`] ??= {})[t] = measure(e, t);
          }
    return out;
  },
  mainthread() {
    log('mainthread: headless Chromium, 4x CPU throttle, phone width (bench/mainthread_bench.mjs)');
    return mainthreadBench('load,estimate,reading,input');
  },
  bigrun() {
    // one sample is one load and one Figure 4 per language: --samples of them, each kept
    const n = Number(flagValue('samples') ?? 3);
    const runs = Array.from({ length: n }, (_, i) => {
      log(`bigrun: a stored run of 10⁶ loss points, sample ${i + 1} of ${n} (bench/mainthread_bench.mjs)`);
      return mainthreadBench('bigrun,estimate');
    });
    const { throttle, window_ms, cores, big_run } = runs[0];
    const samples = runs.map((r) => ({
      measured: r.measured,
      load_before: r.load_before,
      load_after: r.load_after,
      languages: Object.fromEntries(Object.entries(r.languages).map(([lang, x]) => [lang, x.big])),
    }));
    return { throttle, window_ms, cores, big_run, samples };
  },
  lighthouse() {
    if (!existsSync(`${root}dist/index.html`)) return { skipped: 'dist/ missing: run npx vite build first' };
    log('lighthouse: Performance, mobile preset, the system Chromium (bench/lighthouse_bench.mjs)');
    return JSON.parse(
      sh('node', [`${root}bench/lighthouse_bench.mjs`], { stdio: ['ignore', 'pipe', 'inherit'] })
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
  gpuhost() {
    // before (bench/webgpu_baseline.sh's build, when there is one) and after, sampled in turn
    const base = `${root}build/gpu-baseline`;
    const dirs = existsSync(`${base}/lnx-gpu.wasm`) ? [base, `${root}public/wasm`] : [`${root}public/wasm`];
    log(`gpuhost: the host's part of a WebGPU step, Node over Dawn (${dirs.length} builds)`);
    try {
      const r = JSON.parse(sh('node', [`${root}bench/webgpu_host.mjs`, ...dirs.flatMap((d) => ['--wasm', d])], { stdio: ['ignore', 'pipe', 'inherit'] }));
      if (existsSync(`${base}/BASELINE`)) r.baseline = readFileSync(`${base}/BASELINE`, 'utf8').trim();
      // the same measurement in headless Chromium's worker, the page's host: there Dawn's encoding
      // runs in the GPU process, outside the measured call (bench/webgpu_bench.mjs --host-only)
      log("gpuhost: the same in headless Chromium's worker (bench/webgpu_bench.mjs --host-only)");
      try {
        const c = JSON.parse(
          sh('node', [`${root}bench/webgpu_bench.mjs`, '--host-only'], { stdio: ['ignore', 'pipe', 'inherit'] })
            .trim()
            .split('\n')
            .pop(),
        );
        r.chromium = { adapter: c.adapter, host: c.host, measured: c.measured };
      } catch (e) {
        r.chromium = { skipped: `bench/webgpu_bench.mjs --host-only failed: ${String(e.message).split('\n')[0]}` };
      }
      return r;
    } catch (e) {
      return { skipped: `bench/webgpu_host.mjs failed: ${String(e.message).split('\n')[0]}` };
    }
  },
  webgpu() {
    log('webgpu: headless Chromium (bench/webgpu_bench.mjs)');
    // the host's part of a step is the gpuhost section's (measured there, in Node and in Chromium)
    const a = ['--no-host'];
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

// The scaling section may be measured on another machine (many cores): it keeps its own record of
// the machine and leaves the one the other sections were measured on.
if (sections.some((x) => x !== 'scaling') || !results.machine) results.machine = machine();
// --baseline=FILE: another build's mainthread and lighthouse results, measured in the same sitting
// ({ commit, what, measured, mainthread, lighthouse }), kept for the "Before and after" table
const baselineArg = args.find((a) => a.startsWith('--baseline='))?.slice(11);
/** The sections the "Before and after" table compares with the baseline's. */
const BASELINE_SECTIONS = ['mainthread', 'bigrun', 'lighthouse'];
if (baselineArg) {
  results.baseline = JSON.parse(readFileSync(baselineArg, 'utf8'));
  writeFileSync(jsonPath, JSON.stringify(results, null, 1) + '\n');
} else if (results.baseline && sections.some((s) => BASELINE_SECTIONS.includes(s))) {
  // a section the table compares is measured again without its baseline: the table would set this
  // sitting's numbers beside another sitting's (2026-12-07: a baseline of 2026-12-05 beside that
  // day's mainthread and Lighthouse, on a machine whose Lighthouse benchmark index had fallen from
  // about 2,800 to 1,200–2,200), so it goes
  console.log(`bench: the "Before and after" table (${results.baseline.commit}, ${results.baseline.measured}) is dropped: not this sitting`);
  delete results.baseline;
}
for (const s of sections) {
  if (!run[s]) throw new Error(`unknown section ${s}`);
  const prev = results[s];
  const at = machine();
  results[s] = { measured: at.date, machine: at, ...(await run[s]()), load_average_after: os.loadavg().map((x) => Math.round(x * 10) / 10) };
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
// Issue 32 item 2: the targets; the seconds a step's matrix products (`flops`) take on one core at
// the SIMD128 limit of 16 flop per cycle at `ghz` (the profile section's clock); and those of a grid
// of `runs` runs × `steps` steps on 2 cores, one run per core. The profile and page sections both ask.
const QUICK_TARGET_S = 15;
const GRID_LIMIT_SHARE = 0.8;
const stepAtLimit = (flops, ghz) => flops / (16 * ghz * 1e9);
const gridAtLimit = (flops, runs, steps, ghz) => (runs * steps * stepAtLimit(flops, ghz)) / 2;
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
    "8 layers, d = 128, d_ff = 512, 8 × 64 tokens, Pre-LN, forward + backward + Adam, 40 timed steps, median of 3 measurements. With two or more threads one run computes its two half-batches at once, each on half of the threads, every op of a half split over its half's threads (wasm/trainer.cpp, wasm/thread_pool.h); the curve is bit-identical for any thread count. Target: 2 threads ≥ 1.6× faster than 1. More threads: the scaling section.",
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
  // Issue 32 item 2's targets against what the limit allows, from the wasm-st 1-thread column (a
  // 2-core grid runs one run per thread, each run's step on one core): the fastest grid, its GEMMs
  // at the limit and the rest of the step as measured; and how close to the limit the GEMMs would
  // have to run to meet the target with the rest as it is.
  const st = (m) => m?.runs?.['wasm-st_1t'];
  const bound = (m, runs, steps) => {
    const r = st(m),
      g = r.ops.find((o) => o.op === 'gemm')?.seconds_per_step ?? 0,
      rest = r.seconds_per_step - g,
      atLimit = stepAtLimit(m.flops_per_step, ghz);
    return {
      rest,
      atLimit,
      // how close to the limit the GEMMs run now
      gemmShareOfLimit: atLimit / g,
      best: (runs * steps * (atLimit + rest)) / 2,
      limitOnly: gridAtLimit(m.flops_per_step, runs, steps, ghz),
      now: (runs * steps * r.seconds_per_step) / 2,
    };
  };
  if (ghz && st(pr.models.quick) && st(pr.models.toy)) {
    const q = bound(pr.models.quick, 16, 200),
      t = bound(pr.models.toy, 16, 500),
      qNeed = q.atLimit / ((2 * QUICK_TARGET_S) / (16 * 200) - q.rest),
      tNeed = t.atLimit / ((2 * t.limitOnly) / GRID_LIMIT_SHARE / (16 * 500) - t.rest);
    md.push(
      '### What the limit allows the quick look and the grid (issue 32, item 2)',
      '',
      'From the wasm-st column above (a 2-core grid runs one run per thread, so each run step takes one core; the FMA flavour has the same 16-flop ceiling): the fastest grid on 2 cores with every GEMM at the SIMD128 limit and the rest of the step as measured, against the targets.',
      '',
      "| grid | GEMMs at the limit | + the rest of the step | at today's step | target | GEMMs must reach |",
      '|---|---|---|---|---|---|',
      `| the quick look, 16 runs × 200 steps | ${f(q.limitOnly, 1)} s | ${f(q.best, 1)} s | ${f(q.now, 1)} s | ≤ ${QUICK_TARGET_S} s | ${qNeed > 0 ? `${f(100 * qNeed, 0)}% of the limit${qNeed > 1 ? ': impossible' : ''}` : 'the rest of the step alone is over the target: impossible'} |`,
      `| the article's, 16 runs × 500 steps | ${f(t.limitOnly, 0)} s | ${f(t.best, 0)} s | ${f(t.now, 0)} s | ≥ ${100 * GRID_LIMIT_SHARE}% of the limit: ≤ ${f(t.limitOnly / GRID_LIMIT_SHARE, 0)} s | ${f(100 * tNeed, 0)}% of the limit |`,
      '',
      `${
        qNeed > 0 && qNeed <= 1
          ? `The quick look's target needs its GEMMs at ${f(100 * qNeed, 0)}% of the limit, where they run at ${f(100 * q.gemmShareOfLimit, 0)}% now`
          : "The quick look's target cannot be met by a faster GEMM alone"
      }: with its products at the limit, the rest of its step (${f(1000 * q.rest, 2)} ms of ${f(1000 * st(pr.models.quick).seconds_per_step, 2)} ms: optimizer, norms, copies) leaves it at ${f(q.best, 1)} s. The grid's needs a GEMM at ${f(100 * tNeed, 0)}% of the limit where it runs at ${f(100 * t.gemmShareOfLimit, 0)}% now.`,
      '',
    );
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
if (results.phasemap) {
  const q = results.phasemap;
  md.push(
    `## The trainability map's (fig15) quick map (${when(q)})`,
    '',
    `The trainability map's small setting (\`${JSON.stringify(q.config)}\` over the engine's defaults: every placement and warm-up of the reference at its cells of those depths, lrs and seed), in the threaded WebAssembly build under Node with 2 threads: ` +
      `${f(q.wasm_mt_2t, 1)} s wall, ${f(q.cpu_seconds, 1)} s of CPU over all threads (on 2 free cores about ${f(q.cpu_seconds / 2, 0)} s). ` +
      `Target "a live quick map within 3 min on 2 cores": ${q.wasm_mt_2t <= q.target_seconds ? 'met' : q.cpu_seconds / 2 <= q.target_seconds ? 'met in CPU time, not in wall time on this shared machine' : 'not met'}.`,
    '',
  );
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
if (results.scaling) {
  const sc = results.scaling;
  const probeWhat = Object.entries(sc.probe_config)
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(',') : v}`)
    .join(', ');
  const JOB = {
    step: ['toy step (s / step)', 3],
    probe: [`probe, ${probeWhat} (s)`, 1],
    grid: [`grid, first ${sc.grid_config.steps} steps (s)`, 1],
  };
  const BUILD = { native: 'native', wasm: 'wasm-mt (Node)' };
  const label = (key) => {
    const [job, build] = key.split('_');
    return `| ${JOB[job][0]} | ${BUILD[build]} |`;
  };
  const digits = (key) => JOB[key.split('_')[0]][1];
  md.push(`## Scaling with threads (${when(sc)})`, '');
  const sm = sc.machine;
  md.push(`Machine: ${sm.cpu}, ${sm.cores} cores, ${sm.memory_gib} GiB; load average at start ${sm.load_average_at_start.join(' / ')}; Node ${sm.node}.`, '');
  // a load above the core count means other processes had the cores part of the time: the cells of
  // one row, and before against after (measured one after the other), compare; absolute times do not
  const busiest = Math.max(sm.load_average_at_start[0], sc.load_average_after?.[0] ?? 0);
  if (busiest >= sm.cores)
    md.push(
      `The machine was shared with other jobs while this ran (1-minute load average ${sm.load_average_at_start[0]} at the start and ${sc.load_average_after?.[0] ?? '—'} at the end, on ${sm.cores} cores): a thread often waited for a core, so read the ratios (a row's speed-up, after ÷ before), not the seconds, and not against the other sections.`,
      '',
    );
  md.push(
    '`npm run bench:scaling` (scripts/bench.mjs, section `scaling`): the toy step as in the step section (Pre-LN, 8 × 64 tokens, median of 3); ' +
      `the article's probe with ${probeWhat} (both placements, every depth); the article's 16-run grid, its first ${sc.grid_config.steps} of 500 steps. ` +
      'One run\'s two half-batches run at once, each on half of the threads, and each op of a half splits over its half\'s threads; the grid runs one run per thread (docs/engine.md, "Threads"). ' +
      'Every cell gives the same bits. Each cell: seconds, and the speed-up over 1 thread. A wasm cell that ran fewer threads than asked (one Web Worker per core plus the caller) says how many.',
    '',
  );
  const after = sc.results.after;
  md.push(`| job | build | ${sc.threads.map((t) => `${t} thread${t > 1 ? 's' : ''}`).join(' | ')} |`, `|---|---|${sc.threads.map(() => '---|').join('')}`);
  for (const [key, cells] of Object.entries(after)) {
    const one = cells[sc.threads[0]]?.seconds;
    md.push(
      `${label(key)} ${sc.threads
        .map((t) => {
          const c = cells[t];
          if (!c) return '—';
          const ran = c.threads !== t ? ` (ran ${c.threads})` : '';
          return `${f(c.seconds, digits(key))}${t !== sc.threads[0] && one ? ` (${f(one / c.seconds)}×)` : ''}${ran}`;
        })
        .join(' | ')} |`,
    );
  }
  md.push('');
  if (sc.results.before) {
    md.push(
      `Before and after, in the same sitting (each cell measured on both, one after the other; before: \`${sc.against}\`${sc.commits?.before ? ` at ${sc.commits.before}` : ''}, after: ${sc.commits?.after ?? 'this checkout'}):`,
      '',
      '| job | build | threads | before | after | after ÷ before |',
      '|---|---|---|---|---|---|',
    );
    for (const [key, cells] of Object.entries(after))
      for (const t of sc.threads) {
        const a = cells[t],
          b = sc.results.before[key]?.[t];
        if (a && b) md.push(`${label(key)} ${t} | ${f(b.seconds, digits(key))} | ${f(a.seconds, digits(key))} | ${f(a.seconds / b.seconds)} |`);
      }
    md.push('');
    // On 1 thread a pool of one runs every op inline in both checkouts (what a threading change
    // changes is how threads share work), so those rows' spread is the sitting's noise.
    const ones = Object.entries(after)
      .map(([key, cells]) => [cells[1], sc.results.before[key]?.[1]])
      .filter(([a, b]) => a && b)
      .map(([a, b]) => a.seconds / b.seconds);
    if (ones.length)
      md.push(
        `On 1 thread both checkouts run every op inline on the calling thread, so the 1-thread rows' after ÷ before (${f(Math.min(...ones))}–${f(Math.max(...ones))}) gauges this sitting's noise: a ratio on more threads inside that range shows no difference.`,
        '',
      );
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
          `; target (issue 13) ≤ 1500 ms: ${met}. All four live and interactive (data-state "ready"), the reader going straight to each in turn (each becomes live as it nears the viewport): ${f(p.figures_ready_ms, 0)} ms.`,
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
        `Full Figure 4 grid (16 runs × 500 steps) computed in the page${p.grid_measured ? ` (measured ${p.grid_measured.slice(0, 16)}Z, an earlier run: \`--page-grid\` times it again)` : ''}, Recompute in Figure 4 with the default settings, threaded build: ${f(p.grid_seconds, 1)} s (the figure's badge at the end: "${p.grid_flavour}"). The same grid under Node took ${results.grid?.wasm_mt_2t ? f(results.grid.wasm_mt_2t, 0) + ' s' : '—'} with 2 threads (grid section${results.grid ? `, ${when(results.grid)}` : ''}: another sitting, not comparable).`,
        '',
      );
    // Issue 32 item 2's targets in the page: the quick look ≤ 15 s; the article's grid at ≥ 80% of the
    // 2-core SIMD128 limit, its products' time at 16 flop per cycle per core (the profile section's
    // clock and flop count; the same run when both sections were measured in it).
    const pr = results.profile,
      toy = pr?.models?.toy;
    if (pr?.clock_ghz && toy?.flops_per_step && (p.grid_seconds || p.estimate?.quick)) {
      const limit = gridAtLimit(toy.flops_per_step, 16, 500, pr.clock_ghz);
      const quick = p.estimate?.quick?.actual_ms / 1000;
      md.push(
        `Issue 32's targets in the page (the 2-core SIMD128 limit at the clock of the profile section, ${when(pr)}: ${f(pr.clock_ghz)} GHz, so the article's grid's ${f((16 * 500 * toy.flops_per_step) / 1e12, 1)} TFLOP of products take ${f(limit, 0)} s at the limit): ` +
          [
            quick ? `the quick look ${f(quick, 1)} s against ≤ ${QUICK_TARGET_S} s, ${quick <= QUICK_TARGET_S ? 'met' : 'not met'}` : null,
            p.grid_seconds
              ? `the article's grid ${f(p.grid_seconds, 0)} s, ${f((100 * limit) / p.grid_seconds, 0)}% of the limit against ≥ ${100 * GRID_LIMIT_SHARE}% (≤ ${f(limit / GRID_LIMIT_SHARE, 0)} s), ${limit / p.grid_seconds >= GRID_LIMIT_SHARE ? 'met' : 'not met'}`
              : null,
          ]
            .filter(Boolean)
            .join('; ') +
          '. What the limit allows them: the profile section.',
        '',
      );
    }
  }
}
if (results.mainthread) {
  const m = results.mainthread;
  const langs = Object.entries(m.languages);
  const ok = (x, lim) => (x == null ? '—' : x <= lim ? 'met' : 'not met');
  md.push(`## The main thread after the first paint (measured ${m.measured.slice(0, 16)}Z)`, '');
  md.push(
    `\`bench/mainthread_bench.mjs\`: the built page under vite preview in headless Chromium at phone width (390 × 800, touch), the CPU slowed ${m.throttle}× (as Lighthouse's mobile preset; the network is not slowed), median of ${m.runs ?? 3} fresh contexts per language. The page the build wrote is the page; its figures, toolbar and citation become live one at a time as they near the viewport (islands: web/src/lib/islands.ts, web/src/page/boot.ts). Long tasks (≥ 50 ms) are counted from the first contentful paint to ${m.window_ms / 1000} s after navigation; total blocking time is the sum of each one's time beyond 50 ms over that window. Load average ${m.load_before.toFixed(2)} before, ${m.load_after.toFixed(2)} after, ${m.cores} cores: on a shared machine a task's wall time holds the time other jobs took the CPU (and the throttle, starved itself, slows less than ${m.throttle}×), so one more load per language is traced without the throttle and each task estimated as its thread CPU time × ${m.throttle}, what it takes on a quiet throttled phone (checked on main's build at c98926f: 371 ms longest and 1387 ms blocking this way, where this table had 589 ms and 1460 ms measured at load 2). Targets (issue 31): no task after the first paint over 200 ms; total blocking time ≤ 200 ms; an interaction answers (next paint) within 100 ms.`,
    '',
    '| language | first contentful paint ms | longest task after it ms | tasks over 200 ms | total blocking time ms | targets | CPU estimate: longest ms | CPU estimate: total blocking ms | targets (estimate) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...langs
      .filter(([, r]) => r.fcp_ms != null)
      .map(([lang, r]) => {
        const e = r.cpu_estimate;
        const both = (a, b) => (a <= 200 && b <= 200 ? 'met' : 'not met');
        return `| ${lang} | ${r.fcp_ms} | ${r.longest_ms} | ${r.over_200} | ${r.tbt_ms} | ${both(r.longest_ms, r.tbt_ms)} | ${e?.longest_ms ?? '—'} | ${e?.tbt_ms ?? '—'} | ${e ? both(e.longest_ms, e.tbt_ms) : '—'} |`;
      }),
    '',
  );
  const boot = langs.filter(([, r]) => r.runs?.[0]?.measures);
  if (boot.length)
    md.push(
      "What the live page's first steps took in the first context (User Timing measures, wall ms): " +
        boot
          .map(
            ([lang, r]) =>
              `${lang}: ${Object.entries(r.runs[0].measures)
                .map(([k, v]) => `${k} ${v}`)
                .join(', ')}`,
          )
          .join('; ') +
        '.',
      '',
    );
  const reading = langs.filter(([, r]) => r.reading);
  if (reading.length) {
    md.push(
      "Reading: the reader scrolls to each figure in turn, and it becomes live (its island: hydrated over the HTML the build wrote, or built in its place), wall ms; the longest task and the total blocking time from the scroll until 1.5 s after the figure is ready (the section's own layout as it comes into view included); and the same again in a page not throttled, traced, each task as its CPU time × 4 (the CPU estimate: what it takes on a quiet throttled phone, target 200 ms):",
      '',
      `| figure | ${reading.map(([l]) => `${l}: island ms | ${l}: longest task ms | ${l}: blocking ms | ${l}: CPU estimate: longest ms`).join(' | ')} |`,
      `|---|${reading.map(() => '---|---|---|---').join('|')}|`,
      ...Object.keys(reading[0][1].reading).map(
        (id) =>
          `| ${id} | ${reading.map(([, r]) => `${r.reading[id]?.island_ms ?? '—'} | ${r.reading[id]?.longest_ms ?? '—'} | ${r.reading[id]?.tbt_ms ?? '—'} | ${r.reading_estimate?.[id]?.longest_ms ?? '—'}`).join(' | ')} |`,
      ),
      '',
    );
  }
  const input = langs.filter(([, r]) => r.input);
  if (input.length) {
    const rows = [
      ['fig1_step', 'Figure 1: a step (tap on "next")'],
      ['fig2_layer', 'Figure 2: a layer (ArrowUp on its slider)'],
      ['fig4_share', 'Figure 4: opening Share (tap)'],
    ];
    md.push(
      "Interactions on live figures, each on a quiet page (no long task for 2 s first), from the input event to the next paint (Event Timing: the interaction's longest event duration, and its input delay), wall ms, the median over the runs (each run's sample in brackets):",
      '',
      `| interaction | ${input.map(([l]) => `${l}: input to paint ms | ${l}: input delay ms | ${l}: ≤ 100 ms`).join(' | ')} |`,
      `|---|${input.map(() => '---|---|---').join('|')}|`,
      ...rows.map(
        ([k, what]) =>
          `| ${what} | ${input.map(([, r]) => `${r.input[k]?.ms ?? '—'}${r.input[k]?.samples ? ` (${r.input[k].samples.map((x) => x ?? '—').join(', ')})` : ''} | ${r.input[k]?.delay_ms ?? '—'} | ${ok(r.input[k]?.ms, 100)}`).join(' | ')} |`,
      ),
      '',
    );
  }
}
// The analyses of earlier sittings that go with a section (bench/notes/SECTION.md, by hand), after it.
const notes = (section) => {
  const file = `${root}bench/notes/${section}.md`;
  if (existsSync(file)) md.push(`Earlier sittings, as their analyses were written (bench/notes/${section}.md):`, '', readFileSync(file, 'utf8').trim(), '');
};
// A section's own record of the machine it was measured on (older results have none).
const machineLine = (r) =>
  r.machine
    ? `Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memory_gib} GiB; load average at the start ${r.machine.load_average_at_start.join(' / ')}; Node ${r.machine.node}.`
    : null;
notes('mainthread');
const med = (xs) => {
  const v = xs.filter((x) => x != null).sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)] : null;
};
/** The 10⁶-point run's median over the samples, per language (also for the before-and-after table). */
const bigMedians = (b) => {
  const out = {};
  for (const lang of Object.keys(b?.samples?.[0]?.languages ?? {})) {
    const xs = b.samples.map((x) => x.languages[lang]).filter(Boolean);
    out[lang] = {
      load_longest_ms: med(xs.map((x) => x.load.longest_ms)),
      load_tbt_ms: med(xs.map((x) => x.load.tbt_ms)),
      load_longest_cpu_ms: med(xs.map((x) => x.load.cpu_estimate?.longest_ms)),
      fig4_longest_ms: med(xs.map((x) => x.fig4.longest_ms)),
      fig4_longest_cpu_ms: med(xs.map((x) => x.fig4.cpu_estimate?.longest_ms)),
      runs_ms: med(xs.map((x) => x.fig4.runs_ms)),
    };
  }
  return out;
};
if (results.bigrun?.samples?.length) {
  const b = results.bigrun;
  const first = b.samples[0];
  const last = b.samples[b.samples.length - 1];
  const some = Object.values(first.languages)[0];
  md.push(`## A run list holding a run of 10⁶ loss points (measured ${first.measured.slice(0, 16)}Z to ${last.measured.slice(0, 16)}Z)`, '');
  md.push(
    [
      machineLine(b),
      `\`ONLY=bigrun,estimate node bench/mainthread_bench.mjs\`, ${b.samples.length} samples one after the other (\`node scripts/bench.mjs --only bigrun --samples ${b.samples.length}\`; load average ${first.load_before.toFixed(2)} before the first, ${last.load_after.toFixed(2)} after the last, ${b.cores} cores).`,
      `A run list holding one stored run of ${some.loss_points.toLocaleString('en')} loss points (Figure 4's slot: ${b.big_run.runs} runs × ${b.big_run.steps.toLocaleString('en')} steps, in the page's IndexedDB store; read and checked in a worker, its curves drawn from their M4 reduction at the chart's width: web/src/lib/runs/stored-check.ts, web/src/lib/curve.ts); the page loaded at phone width under the ${b.throttle}× CPU throttle (long tasks from the first contentful paint to ${b.window_ms / 1000} s), then the reader scrolls to Figure 4, which is hydrated as the build drew it and shows the run after it has painted (page/boot.ts showHeldRuns; \`runs_ms\` is that task's measure). Wall ms, and in brackets the CPU estimate: the same in a page not throttled, traced, each task's thread CPU time × ${b.throttle} (the machine's other jobs left out; Figure 4's, traced from the scroll to it). Target (issue 31): no task after the first paint over 200 ms.`,
    ]
      .filter(Boolean)
      .join(' '),
    '',
    '| sample | language | load average before → after | first contentful paint ms | load: longest task ms | load: total blocking ms | the run listed | Figure 4: island ms | the run shown (`runs_ms`) ms | Figure 4 going live: longest task ms | its tasks, CPU estimate ms | ≤ 200 ms |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...b.samples.flatMap((x, i) =>
      Object.entries(x.languages).map(([lang, r]) => {
        const [l, g] = [r.load, r.fig4];
        const br = (v, e) => `${v}${e != null ? ` (${e})` : ''}`;
        // read on the CPU estimate where there is one (the machine's other jobs left out), as the median below
        const worst = Math.max(l.cpu_estimate?.longest_ms ?? l.longest_ms, g.cpu_estimate?.longest_ms ?? g.longest_ms);
        return `| ${i + 1} (${x.measured.slice(11, 16)}Z) | ${lang} | ${x.load_before.toFixed(2)} → ${x.load_after.toFixed(2)} | ${l.fcp_ms} | ${br(l.longest_ms, l.cpu_estimate?.longest_ms)} | ${br(l.tbt_ms, l.cpu_estimate?.tbt_ms)} | ${r.listed ? 'yes' : 'no'} | ${g.island_ms ?? '—'} | ${g.runs_ms ?? '—'} | ${br(g.longest_ms, g.cpu_estimate?.longest_ms)} | ${g.cpu_estimate?.tasks?.join(', ') ?? '—'} | ${worst <= 200 ? 'met' : 'not met'} |`;
      }),
    ),
    '',
  );
  const meds = Object.entries(bigMedians(b));
  md.push(
    `Median of the ${b.samples.length} samples: ` +
      meds
        .map(
          ([lang, x]) =>
            `${lang}: load's longest task ${x.load_longest_ms} ms (${x.load_longest_cpu_ms ?? '—'} estimated), Figure 4 going live ${x.fig4_longest_ms} ms (${x.fig4_longest_cpu_ms ?? '—'} estimated): ${Math.max(x.load_longest_cpu_ms ?? x.load_longest_ms, x.fig4_longest_cpu_ms ?? x.fig4_longest_ms) <= 200 ? 'met' : '**not met**'}`,
        )
        .join('; ') +
      " (the target read on the CPU estimate, which leaves the machine's other jobs out).",
    '',
  );
  notes('bigrun');
}
// Before and after: the same benchmarks run on another commit's build in the same sitting
// (results.baseline: { commit, what, measured, and any of mainthread, bigrun, lighthouse }, recorded
// with --baseline=FILE, a JSON file holding what bench/mainthread_bench.mjs, the bigrun section and
// bench/lighthouse_bench.mjs gave there). A row is shown where both builds have its number.
if (results.baseline) {
  const b = results.baseline;
  const rows = [];
  const fig = (x) => (x == null ? '—' : String(x));
  const [bigWas, bigNow] = [bigMedians(b.bigrun), bigMedians(results.bigrun)];
  const langs = [...new Set([b.mainthread, b.lighthouse, b.bigrun?.samples?.[0]].flatMap((x) => Object.keys(x?.languages ?? {})))];
  for (const lang of langs) {
    const was = { m: b.mainthread?.languages?.[lang], l: b.lighthouse?.languages?.[lang], g: bigWas[lang] };
    const now = { m: results.mainthread?.languages?.[lang], l: results.lighthouse?.languages?.[lang], g: bigNow[lang] };
    const readingMax = (r) => (r?.reading ? Math.max(...Object.values(r.reading).map((x) => x.longest_ms)) : null);
    const pair = (k, fn) => [k, fn(was), fn(now)];
    rows.push(
      ...[
        pair('load: longest task after the first paint, ms', ({ m }) => m?.longest_ms),
        pair('load: total blocking time, ms', ({ m }) => m?.tbt_ms),
        pair('load: longest task, CPU estimate, ms', ({ m }) => m?.cpu_estimate?.longest_ms),
        pair('load: total blocking time, CPU estimate, ms', ({ m }) => m?.cpu_estimate?.tbt_ms),
        pair('reading (each figure scrolled to): longest task, ms', ({ m }) => readingMax(m)),
        pair('Figure 1 step: input to next paint, ms', ({ m }) => m?.input?.fig1_step?.ms),
        pair('Figure 2 layer: input to next paint, ms', ({ m }) => m?.input?.fig2_layer?.ms),
        pair('Figure 4 Share: input to next paint, ms', ({ m }) => m?.input?.fig4_share?.ms),
        pair('stored run of 10⁶ points: load, longest task, ms (median; CPU estimate)', ({ g }) => g && `${g.load_longest_ms} (${fig(g.load_longest_cpu_ms)})`),
        pair('stored run of 10⁶ points: load, total blocking time, ms (median)', ({ g }) => g?.load_tbt_ms),
        pair(
          'stored run of 10⁶ points: Figure 4 going live, longest task, ms (median; CPU estimate)',
          ({ g }) => g && `${g.fig4_longest_ms} (${fig(g.fig4_longest_cpu_ms)})`,
        ),
        pair('stored run of 10⁶ points: the run shown (`runs_ms`), ms (median)', ({ g }) => g?.runs_ms),
        pair('Lighthouse Performance (median)', ({ l }) => l?.score),
        pair('Lighthouse Performance, every run', ({ l }) => l?.scores?.join(', ')),
        pair('Lighthouse total blocking time, ms', ({ l }) => l?.tbt_ms),
        pair('Lighthouse longest task, ms', ({ l }) => l?.longest_task_ms),
        pair('Lighthouse first / largest contentful paint, ms', ({ l }) => (l ? `${l.fcp_ms} / ${l.lcp_ms}` : null)),
        pair('Lighthouse cumulative layout shift', ({ l }) => (l ? f(l.cls, 3) : null)),
      ]
        .filter(([, a, c]) => a != null && c != null)
        .map(([k, a, c]) => `| ${lang} | ${k} | ${a} | ${c} |`),
    );
  }
  // the sitting: from the baseline's first measurement to this build's last, of the sections compared
  const now = BASELINE_SECTIONS.filter((k) => results[k] && b[k]).map((k) => results[k]);
  const ends = now.map((r) => r.measured).sort();
  const loads = [b.load_before ?? b.mainthread?.load_before ?? b.bigrun?.samples?.[0]?.load_before, now.map((r) => r.load_average_after?.[0]).at(-1)];
  md.push(`## Before and after: ${b.commit} against this build, one sitting`, '');
  md.push(
    `The same benchmarks (sections below), run on the build of ${b.commit} (${b.what}) and then on this one, one after the other (${b.measured.slice(0, 16)}Z to ${(ends.at(-1) ?? b.measured).slice(0, 16)}Z; load average ${fig(loads[0]?.toFixed(1))} at the start, ${fig(loads[1]?.toFixed(1))} at the end, ${results.machine.cores} cores: wall times carry the machine's load, the CPU estimates do not).`,
    '',
    `| language | measure | ${b.commit} | this build |`,
    '|---|---|---|---|',
    ...rows,
    '',
  );
}
/** What the CPU throttle stands for on the machine Lighthouse ran on: the slowdown is relative to
 *  it, so a machine of benchmark index B slowed 4× stands for a device of about B / 4. DevTools'
 *  CPU calibration (chrome-devtools-frontend, panels/mobile_throttling/CalibrationController.ts)
 *  takes 1,000 for a mid-tier phone (a Pixel 5) and 264 for a low-tier one (a Moto G Power 2022). */
function phoneOf(l) {
  const idx = Object.values(l.languages)
    .map((r) => r.benchmark_index)
    .filter((b) => b > 0);
  if (!idx.length || !(l.settings.cpu_slowdown > 0)) return '';
  const lo = Math.round(Math.min(...idx) / l.settings.cpu_slowdown);
  const hi = Math.round(Math.max(...idx) / l.settings.cpu_slowdown);
  return (
    `The CPU slowdown is relative to this machine: its benchmark index over ${l.settings.cpu_slowdown} stands for a device of about ${lo === hi ? lo : `${lo}–${hi}`} on the same scale, ` +
    "where DevTools' CPU calibration takes 1,000 for a mid-tier phone (a Pixel 5) and 264 for a low-tier one (a Moto G Power 2022). " +
    (results.mainthread?.throttle ? `The main-thread section above slows its own machine ${results.mainthread.throttle}× in the same way. ` : '')
  );
}
if (results.lighthouse && !results.lighthouse.skipped) {
  const l = results.lighthouse;
  const s = l.settings;
  md.push(`## Lighthouse: Performance (measured ${l.measured.slice(0, 16)}Z)`, '');
  md.push(
    `${machineLine(l) ? `${machineLine(l)} ` : ''}\`bench/lighthouse_bench.mjs\`: Lighthouse ${l.lighthouse}, its default mobile preset (${s.form_factor}, ${s.screen}; throttling ${s.throttling_method}: ${s.rtt_ms} ms RTT, ${Math.round(s.throughput_kbps)} kbit/s, CPU ${s.cpu_slowdown}× slower), the system's Chromium headless, the page under vite preview (localhost, COOP/COEP); median of ${l.runs} runs per language by score. Lighthouse simulates the throttling from a load it traces unthrottled, so a busy machine inflates its task times too: load average ${l.load_before.toFixed(2)} before, ${l.load_after.toFixed(2)} after, ${l.cores} cores; Lighthouse's own measure of the machine's speed (benchmark index) in each row. ${phoneOf(l)}Targets (issue 31): Performance ≥ 95 and total blocking time ≤ 200 ms.`,
    '',
    '| language | Performance | all runs | first contentful paint ms | largest contentful paint ms | speed index ms | total blocking time ms | cumulative layout shift | time to interactive ms | longest task ms | benchmark index | target |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...Object.entries(l.languages).map(
      ([lang, r]) =>
        `| ${lang} | ${r.score} | ${r.scores.join(', ')} | ${r.fcp_ms} | ${r.lcp_ms} | ${r.speed_index_ms} | ${r.tbt_ms} | ${f(r.cls, 3)} | ${r.tti_ms} | ${r.longest_task_ms} | ${Math.round(r.benchmark_index ?? 0)} | ${r.score >= 95 && r.tbt_ms <= 200 ? 'met' : 'not met'} |`,
    ),
    '',
  );
  notes('lighthouse');
}
if (results.gpuhost) {
  const g = results.gpuhost;
  md.push(`## The host's part of a WebGPU step, before and after (${when(g)})`, '');
  if (g.skipped) md.push(g.skipped, '');
  else {
    const [before, after] = g.builds.length > 1 ? g.builds : [null, g.builds[0]];
    const mo = g.model;
    md.push(
      `\`bench/webgpu_host.mjs\` in Node over Dawn, adapter **${g.adapter}**${g.software ? ' (a software adapter: host times only, never GPU times)' : ''}; ${g.samples} samples per build, the builds sampled in turn in one sitting. ` +
        (before
          ? `Before: \`${before.name}\` (${g.baseline ?? 'bench/webgpu_baseline.sh'}); after: this build. `
          : 'No baseline build (bench/webgpu_baseline.sh makes one). ') +
        `Model: ${mo.layers} layers, d = ${mo.d}, d_ff = ${mo.d_ff}, V = ${mo.vocab}, ${mo.batch} × ${mo.seq} tokens (the toy's dispatches at narrow widths, so that a software adapter runs a step in milliseconds). ` +
        "A sample is one synchronous `step(1)` with the GPU idle before it; in Node it includes Dawn's own encoding, which a browser does in its GPU process. Median (minimum) ms; calls between wasm and JavaScript per call, from a second, counted instance.",
      '',
      '| job | ' +
        (before
          ? 'before ms | after ms | median ratio | min ratio | wasm→JS calls before → after | JS→wasm before → after |'
          : 'ms | wasm→JS calls | JS→wasm calls |'),
      before ? '|---|---|---|---|---|---|---|' : '|---|---|---|---|',
    );
    const names = { run: 'one run, one step', batch: `a batch of ${g.batch_runs} runs, per run-step`, probe: 'a probe pass' };
    for (const [job, a] of Object.entries(after.jobs)) {
      const ms = (j) => `${f(j.host_ms, 2)} (${f(j.host_ms_min, 2)})`;
      if (!before) md.push(`| ${names[job] ?? job} | ${ms(a)} | ${f(a.wasm_to_js, 0)} | ${f(a.js_to_wasm, 0)} |`);
      else {
        const b = before.jobs[job];
        md.push(
          `| ${names[job] ?? job} | ${ms(b)} | ${ms(a)} | ${f(b.host_ms / a.host_ms, 2)}× | ${f(b.host_ms_min / a.host_ms_min, 2)}× | ${f(b.wasm_to_js, 0)} → ${f(a.wasm_to_js, 0)} | ${f(b.js_to_wasm, 0)} → ${f(a.js_to_wasm, 0)} |`,
        );
      }
    }
    md.push('');
    // the same jobs in headless Chromium's worker, when measured with a baseline
    const ch = g.chromium,
      chAfter = ch?.host?.builds.find((b) => b.name === 'this build'),
      chBefore = ch?.host?.builds.find((b) => b.name.startsWith('baseline'));
    if (ch?.skipped) md.push(ch.skipped, '');
    else if (chAfter && chBefore) {
      md.push(
        `The same in headless Chromium (\`bench/webgpu_bench.mjs --host-only\`, measured ${ch.measured.slice(0, 16)}Z, adapter **${ch.adapter.vendor} ${ch.adapter.architecture}**${ch.adapter.software ? ', software' : ''}), the engine in a worker as on the page: there a sample is the worker's own part (the engine's recording and the WebGPU calls, which Chromium serialises to its GPU process); Dawn's encoding for the driver runs in the GPU process, outside the measured call. ${ch.host.samples} samples per build, in turn.`,
        '',
        '| job | before ms | after ms | median ratio | min ratio |',
        '|---|---|---|---|---|',
      );
      for (const [job, a] of Object.entries(chAfter.jobs)) {
        const b = chBefore.jobs[job];
        if (!b) continue;
        md.push(
          `| ${names[job] ?? job} | ${f(b.host_ms, 2)} (${f(b.host_ms_min, 2)}) | ${f(a.host_ms, 2)} (${f(a.host_ms_min, 2)}) | ${f(b.host_ms / a.host_ms, 2)}× | ${f(b.host_ms_min / a.host_ms_min, 2)}× |`,
        );
      }
      md.push('');
    }
    if (before) {
      const ratio = (x, y) => (x?.jobs.batch && y?.jobs.batch ? x.jobs.batch.host_ms / y.jobs.batch.host_ms : null);
      const verdict = (r) => (r == null ? 'not measured' : r >= 5 ? `met (${f(r, 1)}×)` : `**not met** (${f(r, 1)}×)`);
      const rc = ratio(chBefore, chAfter);
      md.push(
        `Issue 32's target, the host's time per run-step at least 5× less, for a batch's run-step: in Node over Dawn, ${verdict(ratio(before, after))}${rc == null ? '' : `; in Chromium's worker, ${verdict(rc)}`}. Results are the same bit for bit (\`node tests/gpu-node/compare-builds.mjs\`).`,
        '',
      );
    }
  }
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
