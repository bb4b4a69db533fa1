// webgpu_measure.js — the GPU measurements, written once for both hosts: the Chromium worker of
// `npm run bench` (webgpu_bench.worker.js) and Node over Dawn (scripts/gpu-check.mjs). They take the
// loaded engine modules and a clock; nothing here knows which host runs it.
//   toy step     ms per training step (forward + backward + Adam) of the toy model of Figure 4:
//                lnx-st (1 thread), lnx-mt (N threads), WebGPU (lnx-gpu); GPU time = recording +
//                execution, measured to queue.onSubmittedWorkDone() after k steps
//   probe pass   ms per probe batch (forward + W²-only backward + statistics) of the probe model
//   matmul       GFLOP/s of the WGSL matmul alone at the shapes these two models multiply
//   toy batch    ms per step of R toy runs as one GpuTrainBatch (wasm/gpu/gpu_train_batch.h), and
//                per run: what the batched grid pays against R runs one after another; for both
//                the single run and the batch, the host's recording time per step (record_ms)
//   dispatches   compute dispatches and queue submits per toy step, batched step and probe pass
//   host         the host's part of a step on its own (measureHost): the synchronous step(1) call
//                with the GPU idle before it, for a run, a batch of R runs (per run-step) and a
//                probe pass, for one or more builds of lnx-gpu sampled in turn (before/after a
//                change), with the calls between wasm and JavaScript per step (countingOptions)
// Every timing has a warm-up (pipeline compilation, first allocation) that is not counted.
// Leaves out: correctness (tests/webgpu, tests/gpu-node), loading the modules (the hosts).

// Model configurations: the real ones, and smaller probe/toy ones for slow (software) adapters.
export const CONFIGS = {
  full: {
    toy: { placement: 'pre', layers: 8, d: 128, d_ff: 512, vocab: 256, seq: 64, batch: 8 },
    probe: { layers: 6, d: 512, d_ff: 1024, vocab: 1000, seq: 32, batch: 8 },
  },
  quick: {
    toy: { placement: 'pre', layers: 8, d: 128, d_ff: 512, vocab: 256, seq: 64, batch: 8 },
    probe: { layers: 2, d: 128, d_ff: 256, vocab: 1000, seq: 32, batch: 8 },
  },
};

// The toy's 8 layers at small widths: the same kernels in the same order as Figure 4's toy (345
// dispatches a step), so the same work for the host, while SwiftShader runs a step in milliseconds
// instead of seconds. The host measurement uses it on a software adapter (measureHost).
export const NARROW_TOY = { placement: 'pre', layers: 8, d: 32, d_ff: 64, vocab: 32, seq: 8, batch: 2 };

export function shapes(toy, probe) {
  const s = [];
  for (const [model, c] of [
    ['toy', toy],
    ['probe', probe],
  ]) {
    const T = c.batch * c.seq;
    s.push(
      { model, op: 'q/k/v = x·Wᵀ', tA: false, tB: true, M: T, N: c.d, K: c.d },
      { model, op: 'FFN in = x·W1ᵀ', tA: false, tB: true, M: T, N: c.d_ff, K: c.d },
      { model, op: 'FFN out = h·W2ᵀ', tA: false, tB: true, M: T, N: c.d, K: c.d_ff },
      { model, op: 'logits = x·Eᵀ', tA: false, tB: true, M: T, N: c.vocab, K: c.d },
      { model, op: 'dW1 = doutᵀ·x', tA: true, tB: false, M: c.d_ff, N: c.d, K: T },
      { model, op: 'dx = dout·W1', tA: false, tB: false, M: T, N: c.d, K: c.d_ff },
      { model, op: 'attention S = q·kᵀ (per sequence)', tA: false, tB: true, M: c.seq, N: c.seq, K: c.d },
    );
  }
  return s;
}

export async function timeCpuTrain(m, cfg, steps) {
  const run = new m.TrainRun(JSON.stringify({ ...cfg, steps: steps + 1 }));
  run.step(1); // warm-up
  const t0 = performance.now();
  run.step(steps);
  const ms = (performance.now() - t0) / steps;
  run.delete();
  return ms;
}

// ms per step of a GPU run or batch (anything with step(k)) after 2 untimed steps, and its
// dispatches and submits per step; deletes it. record_ms: the host's part, the step() call itself
// (recording and sending the work, which batching pays once for all runs), before waiting for the GPU.
async function timeGpuSteps(m, run, steps) {
  run.step(2);
  await m.lnxGpu.idle();
  await m.lnxGpu.settled();
  const c0 = { ...m.lnxGpu.counters };
  const t0 = performance.now();
  run.step(steps);
  const recorded = performance.now();
  await m.lnxGpu.idle();
  const ms = (performance.now() - t0) / steps;
  const c1 = m.lnxGpu.counters;
  run.delete();
  return { ms, record_ms: (recorded - t0) / steps, dispatches: (c1.dispatches - c0.dispatches) / steps, submits: (c1.submits - c0.submits) / steps };
}

export async function timeGpuTrain(m, cfg, steps) {
  return timeGpuSteps(m, new m.GpuTrainRun(JSON.stringify({ ...cfg, steps: steps + 2 }), 1000), steps);
}

// R toy runs of one shape as one GpuTrainBatch (the page's Figure 4 on WebGPU): ms per batched step
// (all R runs advance one step), and dispatches and submits per batched step.
export async function timeGpuBatch(m, cfg, runs, steps) {
  const cfgs = Array.from({ length: runs }, (_, i) => JSON.stringify({ ...cfg, steps: steps + 2, seed: i, lr: 1e-3 * (1 + i) }));
  const t = await timeGpuSteps(m, new m.GpuTrainBatch(cfgs, 1000), steps);
  return { runs, ...t, per_run_ms: t.ms / runs };
}

// A probe of one seed whose first job has warm + passes + 1 batches; only `passes` are timed.
const probeCfg = (model, warm, passes) => ({ ...model, seeds: [0], batches: warm + passes + 1, depth_batches: 1, depths: [1] });

export async function timeCpuProbe(m, model, passes) {
  const run = new m.ProbeRun(JSON.stringify(probeCfg(model, 1, passes)));
  run.step(1);
  const t0 = performance.now();
  run.step(passes);
  const ms = (performance.now() - t0) / passes;
  run.delete();
  return ms;
}

export async function timeGpuProbe(m, model, passes) {
  const run = new m.GpuProbeRun(JSON.stringify(probeCfg(model, 2, passes)));
  run.step(2);
  await m.lnxGpu.idle();
  const c0 = { ...m.lnxGpu.counters };
  const t0 = performance.now();
  run.step(passes);
  await m.lnxGpu.idle();
  const ms = (performance.now() - t0) / passes;
  const c1 = m.lnxGpu.counters;
  run.delete();
  return { ms, dispatches: (c1.dispatches - c0.dispatches) / passes, submits: (c1.submits - c0.submits) / passes };
}

export async function timeMatmul(m, s, budgetMs) {
  const b = new m.GpuMatmulBench(s.tA, s.tB, s.M, s.N, s.K);
  b.run(1);
  await m.lnxGpu.idle(); // compile + first run
  let t0 = performance.now();
  b.run(1);
  await m.lnxGpu.idle();
  const one = performance.now() - t0;
  const reps = Math.max(1, Math.min(500, Math.round(budgetMs / Math.max(one, 0.01))));
  t0 = performance.now();
  b.run(reps);
  await m.lnxGpu.idle();
  const ms = (performance.now() - t0) / reps;
  const vec4 = b.vec4();
  b.delete();
  return { ...s, vec4, reps, ms, gflops: (2 * s.M * s.N * s.K) / (ms * 1e6) };
}

/** Every measurement above. gpu, st: engine modules (lnx-gpu, lnx-st); mt: lnx-mt with `threads`
 *  set, or null; o: { full, quick, steps, passes }; log(line): progress. */
export async function measureAll({ gpu, st, mt, threads, software, o = {}, log = () => {} }) {
  const size = o.full || (!o.quick && !software) ? 'full' : 'quick';
  const { toy, probe } = CONFIGS[size];
  const out = { size, toy_config: toy, probe_config: probe, cpu_threads: mt ? threads : null, toy: {}, probe: {}, matmul: [] };
  const steps = o.steps ?? (software ? 3 : 20);
  const passes = o.passes ?? (software ? 2 : 10);
  const prefixed = (r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [`gpu_${k}`, v]));
  // `what` timed into `into`: `timeCpu` on one thread and (with mt) on `threads`, `cpuN` times each,
  // then `timeGpu` `gpuN` times, its numbers prefixed gpu_
  const cpuThenGpu = async (what, into, timeCpu, timeGpu, config, cpuN, gpuN) => {
    log(`${what}: CPU 1 thread`);
    into.cpu_st_ms = await timeCpu(st, config, cpuN);
    if (mt) {
      log(`${what}: CPU ${threads} threads`);
      into.cpu_mt_ms = await timeCpu(mt, config, cpuN);
    }
    log(`${what}: WebGPU`);
    Object.assign(into, prefixed(await timeGpu(gpu, config, gpuN)));
  };
  await cpuThenGpu('toy step', out.toy, timeCpuTrain, timeGpuTrain, toy, Math.min(steps, 5), steps);
  const runs = o.batchRuns ?? (software ? 2 : 8);
  log(`toy step: WebGPU, a batch of ${runs} runs`);
  out.toy_batch = await timeGpuBatch(gpu, toy, runs, software ? Math.min(steps, 2) : steps);
  await cpuThenGpu('probe pass', out.probe, timeCpuProbe, timeGpuProbe, probe, Math.min(passes, 3), passes);
  for (const s of shapes(toy, probe)) {
    log(`matmul ${s.model} ${s.op} ${s.M}×${s.N}×${s.K}`);
    out.matmul.push(await timeMatmul(gpu, s, software ? 300 : 200));
  }
  out.gpu_error = gpu.lnxGpu.lost || gpu.lnxGpu.error || null;
  return out;
}

// ---- the host's part of a step (issue 32: "a GPU step that costs the host little") ----

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const quantile = (a, p) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(p * a.length))];

// The jobs whose host time is measured: a step of one run, a batched step of R runs (the page's
// Figure 4: per run-step = the batched step / R), a probe pass (one batch).
const HOST_JOBS = {
  run: { per: () => 1, make: (m, model, n) => new m.GpuTrainRun(JSON.stringify({ ...model, steps: n }), 100000) },
  batch: {
    per: (runs) => runs,
    make: (m, model, n, runs) =>
      new m.GpuTrainBatch(
        Array.from({ length: runs }, (_, i) => JSON.stringify({ ...model, steps: n, seed: i, lr: 1e-3 * (1 + i) })),
        100000,
      ),
  },
  probe: {
    per: () => 1,
    make: (m, model, n) => {
      const { placement, ...shape } = model;
      return new m.GpuProbeRun(JSON.stringify({ ...shape, placements: [placement], seeds: [0], batches: n, depth_batches: 1, depths: [1] }));
    },
  },
};

/** Module options that instantiate lnx-gpu with every import (wasm → JS) and export (JS → wasm)
 *  wrapped to count its calls into `counts` ({ imports, exports }); `bytes` resolves to the wasm
 *  binary. A counted instance is for counting only: the wrappers cost time. */
export function countingOptions(bytes, counts) {
  const wrap = (f, key) =>
    typeof f === 'function'
      ? function (...a) {
          counts[key]++;
          return f.apply(this, a);
        }
      : f;
  return {
    instantiateWasm(imports, done) {
      const wrapped = Object.fromEntries(
        Object.entries(imports).map(([mod, fns]) => [mod, Object.fromEntries(Object.entries(fns).map(([k, f]) => [k, wrap(f, 'imports')]))]),
      );
      Promise.resolve(bytes)
        .then((b) => WebAssembly.instantiate(b, wrapped))
        .then(({ instance, module }) => {
          const exports = Object.fromEntries(Object.entries(instance.exports).map(([k, f]) => [k, wrap(f, 'exports')]));
          done({ exports }, module);
        });
      return {};
    },
  };
}

// A job on module m, warmed up (pipelines, bind groups, first allocations); sample() times one
// step(1): from the call to the end of its microtask (a readback's submit runs there), with the GPU
// idle before, so that nothing else of the engine runs meanwhile.
async function hostSampler(m, job, model, samples, runs) {
  const j = HOST_JOBS[job];
  const per = j.per(runs);
  const run = j.make(m, model, samples + 8, runs);
  run.step(2);
  await m.lnxGpu.idle();
  await m.lnxGpu.settled();
  return {
    run,
    async sample() {
      await m.lnxGpu.idle();
      await m.lnxGpu.settled();
      const c0 = { ...m.lnxGpu.counters };
      const t0 = performance.now();
      run.step(1);
      await null;
      const ms = performance.now() - t0;
      const c1 = { ...m.lnxGpu.counters }; // a copy: the live object goes on counting
      return { ms: ms / per, d: (k) => (c1[k] ?? 0) - (c0[k] ?? 0) };
    },
  };
}

/** The host's part of a step for each build ({ name, m, counted? }: lnx-gpu modules on one device;
 *  `counted` an instance made with countingOptions, its `counts`), sampled in turn: per job, host ms
 *  (median, quartiles, minimum), dispatches, submits and uniform writes per call, and, with a counted
 *  instance, calls wasm → JS and JS → wasm per call. o: { model, samples, runs, jobs, log }. */
export async function measureHost(builds, o = {}) {
  const model = o.model ?? NARROW_TOY;
  const samples = o.samples ?? 30;
  const runs = o.runs ?? 8;
  const log = o.log ?? (() => {});
  const out = builds.map((b) => ({ name: b.name, jobs: {} }));
  for (const job of o.jobs ?? Object.keys(HOST_JOBS)) {
    log(`host time: ${job}, ${samples} samples × ${builds.length} build(s)`);
    const ss = [];
    for (const b of builds) ss.push(await hostSampler(b.m, job, model, samples, runs));
    const got = builds.map(() => []);
    for (let i = 0; i < samples; i++) for (let k = 0; k < builds.length; k++) got[k].push(await ss[k].sample());
    for (const s of ss) s.run.delete();
    for (let k = 0; k < builds.length; k++) {
      const g = got[k];
      const ms = g.map((x) => x.ms);
      const r = {
        per_run_step: HOST_JOBS[job].per(runs) > 1,
        runs: HOST_JOBS[job].per(runs),
        host_ms: median(ms),
        host_ms_p25: quantile(ms, 0.25),
        host_ms_p75: quantile(ms, 0.75),
        host_ms_min: Math.min(...ms),
        dispatches: median(g.map((x) => x.d('dispatches'))),
        submits: median(g.map((x) => x.d('submits'))),
        uniform_writes: 'uniformWrites' in builds[k].m.lnxGpu.counters ? median(g.map((x) => x.d('uniformWrites'))) : null,
      };
      const c = builds[k].counted;
      if (c) {
        const s = await hostSampler(c.m, job, model, 4, runs);
        const before = { ...c.counts };
        for (let i = 0; i < 3; i++) await s.sample();
        s.run.delete();
        r.wasm_to_js = (c.counts.imports - before.imports) / 3;
        r.js_to_wasm = (c.counts.exports - before.exports) / 3;
      }
      out[k].jobs[job] = r;
    }
  }
  return { model, samples, batch_runs: runs, builds: out };
}
