// engine-checks.js — the GPU path of the engine against its CPU path, written once for both hosts:
// headless Chromium (checks.worker.js, `npm run test:webgpu`) and Node over Dawn (tests/gpu-node/,
// `npm run test:gpu-node`, and scripts/gpu-check.mjs on a real GPU). Each check takes nothing and
// answers { pass, detail }; engineChecks(gpu) builds them over `gpu()`, which resolves to
// { module, adapter, device } (the lnx-gpu module on that device, and the adapter's name).
// Tolerance: 1e-4 relative everywhere (the WebGPU path's acceptance bound, docs/webgpu.md); how
// "relative" is measured is written next to each check. Leaves out: the backend selection and the
// page's fallbacks (checks.worker.js), timing (bench/webgpu_measure.js).

export const TOL = 1e-4;
export const SMALL = { layers: 2, d: 64, d_ff: 128, vocab: 64, seq: 16, batch: 4 }; // the comparison model of docs/webgpu.md
// The runs' model (the trajectories, the hand-off): what they check is the steps' state, not size, and on
// SwiftShader a step of SMALL costs ~4× one of this.
export const TINY = { layers: 2, d: 32, d_ff: 64, vocab: 32, seq: 8, batch: 4 };
// The trajectories' length: a warm-up, then steps at the peak lr, long enough for every optimizer's
// state (Adam's moments, RAdam's switch to its adaptive step at step 6, momentum) to carry over
// several steps. On SwiftShader a step of TINY costs ~0.2 CPU-s (a step's ~377 dispatches), so the
// trajectory checks below (every optimizer on Post-LN, Adam on Pre-LN, every literature preset: 12
// runs today) cost ~24 CPU-s at 10 steps; they had 20 (twice that) until the suite's 12 minutes
// asked for it back.
export const TRAJECTORY = { warmup: 3, steps: 10 };
// The ops of the backend interface (wasm/op_interface.h) the op check must cover, besides one
// update per registered optimizer.
export const OP_NAMES = [
  'gemm',
  'linear_forward',
  'linear_backward',
  'add_row_vector',
  'relu_forward',
  'relu_backward',
  'layernorm_forward',
  'layernorm_backward',
  'rmsnorm_forward',
  'rmsnorm_backward',
  'dyt_forward',
  'dyt_backward',
  'gate_forward',
  'gate_backward',
  'attention_forward',
  'attention_backward',
  'cross_entropy_forward',
  'cross_entropy_backward',
  'embed_forward',
  'embed_backward',
  'add',
  'accumulate',
  'scale',
  'copy',
  'zero',
  'statistics',
];

// The placement-spec options that add ops (docs/engine.md, "A placement from a spec"), each on a
// layout where it means something, and all of them at once. Gates start off 0 here, so every
// branch weight has a gradient to compare (the presets' runs below start ReZero at 0).
// A one-element tensor (a gate, DyT's α) has for gradient a sum over every token and coordinate;
// where that sum nearly cancels, its relative error is the model's largest: "all together" at
// seed 5, layer1.gate 7.1e-5 on SwiftShader (its gradient 5.3e-5; the largest entry 1.17).
export const SPEC_OPTIONS = {
  'DyT, Pre-LN': { attention: { norm_input: true }, ffn: { norm_input: true }, final_norm: true, norm: { kind: 'dyt', alpha0: 0.7 } },
  'norm none, Peri-LN': { attention: { norm_input: true, norm_branch: true }, ffn: { norm_input: true, norm_branch: true }, final_norm: true, norm: 'none' },
  'QK-norm layernorm, Post-LN': { attention: { norm_after: true }, ffn: { norm_after: true }, qk_norm: 'layernorm' },
  'QK-norm rmsnorm, Pre-LN': { attention: { norm_input: true }, ffn: { norm_input: true }, final_norm: true, qk_norm: 'rmsnorm' },
  'ReZero gate per sublayer': { residual_scale: { kind: 'rezero', g0: 0.3 } },
  'ReZero gate per layer, branch norms': {
    attention: { norm_branch: true },
    ffn: { norm_branch: true },
    residual_scale: { kind: 'rezero', g0: 0.3, per: 'layer' },
  },
  'B2T, DeepNorm': { attention: { norm_after: true }, ffn: { norm_after: true }, residual_scale: 'deepnet', init_scale: 'deepnet', b2t: true },
  'all together': {
    attention: { norm_after: true },
    ffn: { norm_branch: true, norm_after: true },
    norm: 'dyt',
    qk_norm: 'rmsnorm',
    residual_scale: { kind: 'rezero', g0: 0.5, per: 'layer' },
    b2t: true,
  },
};
/** A config's model fields for a spec of SPEC_OPTIONS, run under the name "opt". */
export const specKnobs = (spec) => ({ placement: 'opt', placement_spec: { name: 'opt', ...spec } });
// A gradient that is exactly zero: the key bias (softmax ignores a shift of a row's scores) or, with
// a QK-norm, the k norm's β (the shift is then its).
const EXACT_ZERO = /\.(bk|knorm\.beta)$/;

/** Step a synchronous GPU run a chunk at a time, awaiting the readbacks (`settled`) after each
 *  chunk, until `done()`; `onChunk` runs after each chunk (a check can destroy the device there). */
export async function driveGpu(run, done, settled, { chunk = 8, onChunk } = {}) {
  while (!done()) {
    const r = run.step(chunk);
    await settled();
    onChunk?.(r);
  }
}

export const e1 = (x) => (typeof x === 'number' ? x.toExponential(1) : String(x));
export const relMax = (got, ref) => Math.max(0, ...got.map((g, i) => Math.abs(g - ref[i]) / Math.abs(ref[i])));

export async function cpuTrain(m, cfg) {
  const run = new m.TrainRun(JSON.stringify(cfg));
  while (run.status() === 'running') run.step(10);
  const r = JSON.parse(run.resultJson(0));
  run.delete();
  return r;
}
export async function gpuTrain(m, cfg, readbackEvery = 5) {
  const run = new m.GpuTrainRun(JSON.stringify(cfg), readbackEvery);
  try {
    await driveGpu(
      run,
      () => run.status() !== 'running',
      () => m.lnxGpu.settled(),
      { chunk: 4 },
    );
    return JSON.parse(run.resultJson(0));
  } finally {
    run.delete();
  }
}

// Every number of a probe document against the CPU one. Means and scalars: |gpu − cpu| / |cpu|.
// Standard deviations over seeds: |gpu − cpu| / |mean| (a std is a difference of nearly equal
// numbers, so its own relative error overstates the disagreement; the mean sets its scale).
// The probe the probe checks compare: 2 placements × 2 seeds × (the full model + 2 depths) = 12 jobs.
const PROBE_CFG = JSON.stringify({ ...SMALL, seeds: [0, 1], batches: 3, depth_batches: 2, depths: [2, 3] });

/** The CPU probe's document, continuing `handoff` (a GPU probe's finished jobs) when given. */
function cpuProbe(m, cfg, handoff = null) {
  const run = new m.ProbeRun(cfg);
  try {
    if (handoff) run.continueFrom(handoff, 'webgpu');
    while (!run.done()) run.step(20);
    return JSON.parse(run.resultJson());
  } finally {
    run.delete();
  }
}

export function compareProbe(cpu, got) {
  let worstMean = 0,
    worstStd = 0,
    count = 0;
  const where = [];
  const walk = (a, b, path, parent) => {
    if (typeof a === 'number') {
      count++;
      const isStd = path.endsWith('.std') || /\.std\.\d+$/.test(path);
      let e;
      if (isStd) {
        const idx = path.match(/\.(\d+)$/);
        const mean = idx ? parent.mean[Number(idx[1])] : parent.mean;
        e = Math.abs(a - b) / Math.abs(mean);
        worstStd = Math.max(worstStd, e);
      } else {
        e = a === b ? 0 : Math.abs(a - b) / Math.abs(a);
        worstMean = Math.max(worstMean, e);
      }
      if (!(e <= TOL)) where.push(`${path}: ${a} vs ${b}`);
    } else if (Array.isArray(a)) {
      if (!Array.isArray(b) || a.length !== b.length) where.push(`${path}: shape`);
      else a.forEach((x, i) => walk(x, b[i], `${path}.${i}`, parent));
    } else if (a && typeof a === 'object') {
      for (const k of Object.keys(a)) if (k !== 'engine') walk(a[k], b?.[k], `${path}.${k}`, a);
    } else if (a !== b) where.push(`${path}: ${a} vs ${b}`);
  };
  walk(cpu, got, '', null);
  return { worstMean, worstStd, count, where };
}

/** The document of the engine's one-shot check `cls` (GpuOpCheck, GpuGradCheck …) built from `args`,
 *  once its readbacks have settled, and the module m; the check object is then freed. */
async function checkDoc(gpu, cls, ...args) {
  const { module: m } = await gpu();
  const c = new m[cls](...args);
  await m.lnxGpu.settled();
  const r = JSON.parse(c.resultJson());
  c.delete();
  return { m, r };
}

/** The checks, by name, over gpu() → { module, adapter, device }. */
export function engineChecks(gpu) {
  return {
    async 'WebGPU adapter and device'() {
      const { adapter, device } = await gpu();
      return { pass: true, detail: `${adapter}; maxStorageBufferBindingSize ${device.limits.maxStorageBufferBindingSize >> 20} MiB` };
    },

    // Every op of the backend interface on its own (odd shapes, null optional outputs, += and
    // overwrite), each optimizer's update at two steps, the run statistics: GPU vs CPU per output.
    async 'every backend op, each optimizer update and the run statistics'() {
      const { m, r } = await checkDoc(gpu, 'GpuOpCheck');
      const bad = r.ops.filter((o) => !(o.max_rel <= TOL));
      const worst = [...r.ops].sort((a, b) => b.max_rel - a.max_rel)[0];
      const optimizers = JSON.parse(m.schemaJson()).optimizers.map((o) => `optimizer ${o.name}`);
      const missing = [...OP_NAMES, ...optimizers].filter((n) => !r.op_names.includes(n));
      const pass = bad.length === 0 && missing.length === 0;
      return {
        pass,
        detail:
          `${r.op_names.length} ops, ${r.ops.length} outputs, max_rel ${e1(r.max_rel)} (${worst.op}: ${worst.output})` +
          (missing.length ? `; not checked: ${missing.join(', ')}` : '') +
          (bad.length
            ? `; over ${TOL}: ${bad
                .slice(0, 4)
                .map((o) => `${o.op} ${o.output} ${e1(o.max_rel)}`)
                .join('; ')}`
            : ''),
      };
    },

    // The WGSL matmul against gemm<float>: every (TA, TB), vec4 and scalar paths, batched, beta 0 and 1.
    async 'matmul: all transpositions, vec4 and scalar paths'() {
      const { r } = await checkDoc(gpu, 'GpuMatmulCheck');
      const covered = new Set(r.cases.map((x) => `${x.tA}${x.tB}${x.vec4}`));
      const pass = r.max_rel <= TOL && covered.size === 8;
      return { pass, detail: `${r.cases.length} cases, ${covered.size}/8 (TA,TB,vec4) paths, max_rel ${e1(r.max_rel)}` };
    },

    // One forward/backward on both paths: loss, and every parameter gradient tensor as
    // max|gpu − cpu| / max|cpu| per tensor. The key bias has an exactly-zero gradient (softmax ignores a
    // common shift of a row's scores): both paths must give ≤ 1e-6 of the largest gradient entry there.
    ...Object.fromEntries(
      ['post', 'pre'].flatMap((norm) =>
        ['bidirectional', 'causal'].map((attention) => [
          `gradients of one step: ${norm}-LN, ${attention}`,
          async () => {
            const { r } = await checkDoc(gpu, 'GpuGradCheck', JSON.stringify({ ...SMALL, placement: norm, attention, seed: 5 }));
            const zero = r.tensors.filter((t) => t.zero).map((t) => t.name);
            const zeroOk = zero.every((n) => /\.bk$/.test(n)) && r.zero_max_over_scale <= 1e-6;
            const pass = r.max_rel <= TOL && r.loss_rel <= TOL && zeroOk && r.tensors.length >= 28;
            const worst = r.tensors.filter((t) => !t.zero).sort((a, b) => b.max_rel - a.max_rel)[0];
            return {
              pass,
              detail: `${r.tensors.length} tensors, max_rel ${e1(r.max_rel)} (${worst.name}), loss ${e1(r.loss_rel)}; zero-gradient ${zero.join(', ') || 'none'} ≤ ${e1(r.zero_max_over_scale)}·max`,
            };
          },
        ]),
      ),
    ),

    // The model's knobs away from their defaults (RMSNorm, a final norm forced on, an untied output
    // matrix, no √d input scale), and the other placements: one forward/backward on both paths.
    ...Object.fromEntries(
      [
        [
          'post-LN, rmsnorm + final norm + untied output + unscaled input',
          { placement: 'post', norm_type: 'rmsnorm', final_norm: 'on', output: 'untied', input_scale: 'none' },
        ],
        ['pre-LN, rmsnorm + no final norm + untied output', { placement: 'pre', norm_type: 'rmsnorm', final_norm: 'off', output: 'untied' }],
        ['peri-LN', { placement: 'peri' }],
        ['deepnorm', { placement: 'deepnorm' }],
        ['admin', { placement: 'admin' }],
        ...Object.entries(SPEC_OPTIONS).map(([name, spec]) => [`spec: ${name}`, specKnobs(spec)]),
      ].map(([name, knobs]) => [
        `gradients of one step: ${name}`,
        async () => {
          const { r } = await checkDoc(gpu, 'GpuGradCheck', JSON.stringify({ ...SMALL, attention: 'causal', seed: 5, ...knobs }));
          const zeroOk = r.tensors.filter((t) => t.zero).every((t) => EXACT_ZERO.test(t.name)) && r.zero_max_over_scale <= 1e-6;
          const pass = r.max_rel <= TOL && r.loss_rel <= TOL && zeroOk && r.tensors.length >= 20;
          return { pass, detail: `${r.tensors.length} tensors, max_rel ${e1(r.max_rel)}, loss ${e1(r.loss_rel)}` };
        },
      ]),
    ),

    // TRAJECTORY's 10 steps (warm-up 3, then the optimizer's suggested peak lr) on both paths: every step's loss
    // and gradient norm, |gpu − cpu| / |cpu|; the learning rates identical.
    // Post-LN runs every optimizer, Pre-LN Adam (each update is also checked on its own above), on
    // the TINY model.
    ...Object.fromEntries(
      [
        ['post', null],
        ['pre', 'adam'],
      ].map(([norm, only]) => [
        `losses over ${TRAJECTORY.steps} steps of ${only ? only : 'every optimizer'}: ${norm}-LN`,
        async () => {
          const { module: m } = await gpu();
          const parts = [];
          let pass = true;
          for (const o of JSON.parse(m.schemaJson()).optimizers.filter((x) => !only || x.name === only)) {
            const cfg = { ...TINY, placement: norm, ...TRAJECTORY, seed: 2, optimizer: o.name, lr: o.suggested_lr };
            const a = await cpuTrain(m, cfg);
            const b = await gpuTrain(m, cfg);
            const lossRel = relMax(b.loss, a.loss),
              gnRel = relMax(b.grad_norm, a.grad_norm);
            pass &&=
              a.status === 'ok' &&
              b.status === 'ok' &&
              b.loss.length === TRAJECTORY.steps &&
              lossRel <= TOL &&
              gnRel <= TOL &&
              JSON.stringify(a.lr_schedule) === JSON.stringify(b.lr_schedule) &&
              b.engine.backend === 'webgpu';
            parts.push(`${o.name}: loss ${e1(lossRel)}, grad-norm ${e1(gnRel)} (${a.loss[0].toFixed(3)} → ${a.loss.at(-1).toFixed(3)})`);
          }
          return { pass, detail: `max_rel ${parts.join('; ')}` };
        },
      ]),
    ),

    // TRAJECTORY's steps of every literature preset (the page's composer offers them; schema's
    // placement_presets) on both paths, with Adam, and ReZero (its gates start at 0) with SGD too:
    // every step's loss and gradient norm, |gpu − cpu| / |cpu|.
    async [`losses over ${TRAJECTORY.steps} steps of every literature placement preset`]() {
      const { module: m } = await gpu();
      const schema = JSON.parse(m.schemaJson());
      const sgd = schema.optimizers.find((o) => o.name === 'sgd');
      const parts = [];
      let pass = true,
        count = 0;
      for (const p of schema.placement_presets.filter((x) => x.source !== 'registry')) {
        for (const o of p.name === 'rezero' ? [schema.optimizers[0], sgd] : [schema.optimizers[0]]) {
          const cfg = { ...TINY, placement: p.name, placement_spec: p.spec, ...TRAJECTORY, seed: 2, optimizer: o.name, lr: o.suggested_lr };
          const a = await cpuTrain(m, cfg);
          const b = await gpuTrain(m, cfg);
          const lossRel = relMax(b.loss, a.loss),
            gnRel = relMax(b.grad_norm, a.grad_norm);
          pass &&= a.status === 'ok' && b.status === 'ok' && b.loss.length === TRAJECTORY.steps && lossRel <= TOL && gnRel <= TOL;
          count++;
          parts.push(`${p.name}/${o.name}: loss ${e1(lossRel)}, grad-norm ${e1(gnRel)} (${a.loss[0].toFixed(3)} → ${a.loss.at(-1).toFixed(3)})`);
        }
      }
      return { pass: pass && count >= 6, detail: `max_rel ${parts.join('; ')}` };
    },

    // Runs of one shape in one GpuTrainBatch (every step one set of dispatches for all of them,
    // wasm/gpu/device_batch.h) against each run alone as a GpuTrainRun: losses, gradient norms, status,
    // stop step and the checkpoints' values bit for bit, including a run that diverges while the others
    // go on. A batch per optimizer covers every optimizer, both norm types and three placements, one
    // more a spec with every op a spec adds (DyT, a QK-norm, a gate, B2T). 3 steps in calls of 2 (a
    // step of TINY is ~0.2 CPU-s on SwiftShader and the check runs 23 runs: with 5 steps in calls of
    // 4 it took 28 s on one core, 17–19 s now), checkpoints every 2: each run that ends "ok" must
    // have handed one over while running (a checkpoint is taken between calls), so the checkpoints
    // are compared, never absent.
    async 'a batch of runs equals each run alone on the GPU, bit for bit'() {
      const { module: m } = await gpu();
      const optimizers = JSON.parse(m.schemaJson()).optimizers;
      const short = { ...TINY, steps: 3 };
      const shapes = optimizers.map((o, i) => ({
        ...short,
        optimizer: o.name,
        placement: ['post', 'pre', 'peri'][i % 3],
        norm_type: i % 2 ? 'rmsnorm' : 'layernorm',
      }));
      // and a spec with every op a spec adds (its kernels in their batched form)
      shapes.push({ ...short, optimizer: optimizers[0].name, ...specKnobs(SPEC_OPTIONS['all together']) });
      // and a batch of one run (a grid's shape of one): its buffers are plain ones, and a readback
      // asked for while it records (every step here, in calls of 2) must wait for the step it reads
      shapes.push({ ...short, optimizer: optimizers[0].name, placement: 'pre', norm_type: 'layernorm', alone: true });
      const parts = [];
      let pass = true;
      for (const [b, shape] of shapes.entries()) {
        const lr = optimizers.find((o) => o.name === shape.optimizer).suggested_lr;
        const { alone: one, ...knobs } = shape;
        const cfgs = [
          { ...knobs, lr, warmup: 0, seed: 0 },
          ...(one ? [] : [{ ...knobs, lr: lr * 3, warmup: 2, seed: 1 }]),
          ...(b === 0 ? [{ ...knobs, lr: 5, warmup: 0, seed: 2 }] : []),
        ];
        const every = one ? 1 : 5;
        const alone = [];
        for (const c of cfgs) {
          const r = new m.GpuTrainRun(JSON.stringify(c), every);
          r.setCheckpointEvery(2);
          let ckpt = null;
          while (r.status() === 'running') {
            r.step(2);
            await m.lnxGpu.settled();
            ckpt = r.takeCheckpoint() ?? ckpt;
          }
          alone.push({ doc: JSON.parse(r.resultJson(0)), ckpt });
          r.delete();
        }
        const batch = new m.GpuTrainBatch(
          cfgs.map((c) => JSON.stringify(c)),
          every,
        );
        batch.setCheckpointEvery(2);
        const ckpts = cfgs.map(() => null);
        while (cfgs.some((_, i) => batch.status(i) === 'running')) {
          batch.step(2);
          await m.lnxGpu.settled();
          cfgs.forEach((_, i) => {
            ckpts[i] = batch.takeCheckpoint(i) ?? ckpts[i];
          });
        }
        const perStep = batch.dispatchesPerStep();
        const docs = cfgs.map((_, i) => JSON.parse(batch.resultJson(i, 0)));
        batch.delete();
        const same = docs.map((d, i) => {
          const a = alone[i];
          const sameCkpt =
            (a.ckpt === null && ckpts[i] === null) ||
            (a.ckpt && ckpts[i] && a.ckpt.step === ckpts[i].step && a.ckpt.values.every((v, k) => Object.is(v, ckpts[i].values[k])));
          return (
            JSON.stringify([d.loss, d.grad_norm, d.status, d.stop_step]) === JSON.stringify([a.doc.loss, a.doc.grad_norm, a.doc.status, a.doc.stop_step]) &&
            sameCkpt
          );
        });
        const checkpointed = docs.every((d, i) => d.status !== 'ok' || ckpts[i] !== null);
        pass &&= same.every(Boolean) && checkpointed && (b !== 0 || docs[2].status !== 'ok') && docs[0].status === 'ok';
        parts.push(
          `${shape.placement}/${shape.placement_spec ? 'spec' : shape.norm_type}/${shape.optimizer} × ${cfgs.length}: ${same.map((x) => (x ? 'same' : 'DIFFERENT')).join(', ')} (${docs.map((d) => d.status).join(', ')}; checkpoints at ${ckpts.map((c) => c?.step ?? 'none').join(', ')}; ${perStep} dispatches a step for all)`,
        );
      }
      // what a batch refuses, in the caller's terms
      const refusal = (f) => {
        try {
          f();
          return 'accepted';
        } catch (e) {
          return String(e?.message ?? e);
        }
      };
      const two = [
        { ...TINY, steps: 4, placement: 'post' },
        { ...TINY, steps: 4, placement: 'pre' },
      ].map((c) => JSON.stringify(c));
      const one = (f) => () => {
        const b = new m.GpuTrainBatch([two[0]], 5);
        try {
          f(b);
        } finally {
          b.delete();
        }
      };
      const cases = [
        ['two shapes', () => new m.GpuTrainBatch(two, 5), /^lnx: run 1 of the batch differs from run 0/],
        ['a non-array', () => new m.GpuTrainBatch('[]', 5), /^lnx: a batch takes an array/],
        ['no runs', () => new m.GpuTrainBatch([], 5), /^lnx: a batch needs at least one run/],
        ['a non-string run', () => new m.GpuTrainBatch([two[0], 3], 5), /^lnx: run 1 of the batch is not a JSON string/],
        ['a broken run config', () => new m.GpuTrainBatch([two[0], '{"steps":'], 5), /^lnx: /],
        ['readbackEvery NaN', () => new m.GpuTrainBatch([two[0]], NaN), /^lnx: .*readbackEvery/],
        ['run 1 of 1', one((b) => b.status(1)), /^lnx: run must be a whole number from 0 to 0/],
        ['run 0.5', one((b) => b.resultJson(0.5, 0)), /^lnx: run must be a whole number from 0 to 0/],
        ['run -1', one((b) => b.takeCheckpoint(-1)), /^lnx: run must be a whole number from 0 to 0/],
        ['checkpointEvery -1', one((b) => b.setCheckpointEvery(-1)), /^lnx: .*checkpointEvery/],
        ['step(0)', one((b) => b.step(0)), /^lnx: /],
      ];
      const wrong = cases.map(([what, f, re]) => [what, refusal(f), re]).filter(([, got, re]) => !re.test(got));
      pass &&= wrong.length === 0;
      parts.push(`refused in the caller's terms: ${wrong.length ? wrong.map(([w, got]) => `${w} → ${got}`).join(' | ') : cases.map(([w]) => w).join(', ')}`);
      return { pass, detail: parts.join('; ') };
    },

    // The point of batching (issue 14): the host pays a step's submit once for all runs. Each run's
    // readbacks (its losses, its checkpoints) and its batch upload ride on that submit, so a batched
    // step is one submit for 1 run or 4, with readbacks and checkpoints every step. The runs' reads
    // of the same elements are one copy of their interleaved span (device_batch.cpp, RawRead), so a
    // step of 4 runs reads back as often as a step of 1 (each run's values: the bit-for-bit checks).
    async 'a batched step is one submit, whatever the number of runs and readbacks'() {
      const { module: m } = await gpu();
      const counts = [];
      const steps = 3;
      for (const runs of [1, 4]) {
        const cfgs = Array.from({ length: runs }, (_, i) =>
          JSON.stringify({ ...TINY, layers: 1, steps: steps + 1, placement: 'pre', lr: 1e-3 * (1 + i), seed: i }),
        );
        const batch = new m.GpuTrainBatch(cfgs, 1);
        batch.setCheckpointEvery(1);
        batch.step(1);
        await m.lnxGpu.settled();
        const c0 = { ...m.lnxGpu.counters };
        batch.step(steps);
        await m.lnxGpu.settled();
        const c1 = m.lnxGpu.counters;
        counts.push({ runs, submits: (c1.submits - c0.submits) / steps, reads: (c1.reads - c0.reads) / steps });
        batch.delete();
      }
      const pass = counts.every((c) => c.submits === 1 && c.reads >= 1) && counts[1].reads === counts[0].reads;
      return { pass, detail: counts.map((c) => `${c.runs} run(s): ${c.submits} submit(s) and ${c.reads} readbacks a step`).join('; ') };
    },

    // A run halted in its batch (GpuTrainBatch.halt: a phase diagram's settled run) records no more
    // steps, and the others go on as each alone: their token writes, one dispatch per tensor for the
    // runs in a row (device_batch.cpp, flush_scatters), split around the halted one (runs 0 and 2–3 of
    // 4). The halted run keeps the steps it had, as alone up to there.
    async 'a run halted in its batch leaves the others as each alone'() {
      const { module: m } = await gpu();
      const steps = 6;
      const cfgs = Array.from({ length: 4 }, (_, i) => ({ ...TINY, layers: 1, steps, placement: 'pre', lr: 1e-3 * (1 + i), seed: i }));
      const key = (d) => JSON.stringify([d.loss, d.grad_norm, d.status, d.stop_step]);
      const alone = [];
      for (const c of cfgs) alone.push(await gpuTrain(m, c, 1));
      const batch = new m.GpuTrainBatch(
        cfgs.map((c) => JSON.stringify(c)),
        1,
      );
      batch.step(2);
      await m.lnxGpu.settled();
      batch.halt(1);
      const going = [0, 2, 3];
      await driveGpu(
        batch,
        () => going.every((i) => batch.status(i) !== 'running'),
        () => m.lnxGpu.settled(),
        { chunk: 2 },
      );
      const docs = cfgs.map((_, i) => JSON.parse(batch.resultJson(i, 0)));
      batch.delete();
      const same = going.map((i) => key(docs[i]) === key(alone[i]));
      const kept = docs[1].loss.length === 2 && docs[1].loss.every((v, k) => Object.is(v, alone[1].loss[k]));
      return {
        pass: same.every(Boolean) && kept && going.every((i) => docs[i].status === 'ok'),
        detail: `runs 0, 2, 3 against each alone: ${same.map((x) => (x ? 'same' : 'DIFFERENT')).join(', ')}; the halted run: ${docs[1].loss.length} losses${kept ? ', as alone' : ', NOT as alone'}`,
      };
    },

    // The phase diagram on WebGPU (wasm/gpu/gpu_phase_diagram.h: the runs of one shape as one batch,
    // the CPU experiment's rule and document). Against each run alone as a GpuTrainRun (no phase
    // code): the stop step of a diverged run and its status, an "end" run's length, and the escape
    // step and final loss recomputed here from its losses. (A batch equals each of its runs alone bit
    // for bit, a batch of one run included: the batch check above, whose batch of one caught a
    // readback taken before its step was sent; the map is not run a second time one run at a time.)
    // Against the CPU experiment's document of the same config (ExperimentRun, the document the
    // page's shape check reads): the same keys and types everywhere, the same config and cells, the
    // same outcomes. The config gives each kind of stop: settled (lr 0.03 at depth 1, and Pre-LN at
    // 2: escaped at steps 21–23 on the CPU, so settled by 25 with `settle` 2), end (Post-LN at depth 2
    // stays on the plateau: over 80 steps the CPU's run escapes past step 80, the GPU's at 73) and
    // diverged (lr 3, at step 2); 4 shapes of 2 runs of 30 steps. Each run alone goes to the step
    // where the map stopped it, no further. (With 40 steps, settle 5 and the runs alone taken 8 steps
    // at a time past their stop, the check took 67–72 s on SwiftShader on one core; 49–54 s now.)
    async 'the phase diagram batched equals its runs alone on the GPU, in the CPU document shape'() {
      const { module: m } = await gpu();
      const { layers: _, ...model } = TINY; // the depths are the diagram's
      const cfg = { ...model, placements: ['post', 'pre'], depths: [1, 2], lrs: [0.03, 3], warmups: [0], seeds: [0], steps: 30, settle: 2 };
      const json = JSON.stringify(cfg);
      const runPhase = async (maxBatch) => {
        const run = new m.GpuPhaseDiagram(json, maxBatch);
        try {
          await driveGpu(
            run,
            () => run.done(),
            () => m.lnxGpu.settled(),
            { chunk: 8 },
          );
          return { doc: JSON.parse(run.resultJson()), batches: JSON.parse(run.batchesJson()) };
        } finally {
          run.delete();
        }
      };
      const batched = await runPhase(16);
      const cpuRun = new m.ExperimentRun('phase-diagram', json);
      while (!cpuRun.done()) cpuRun.step(50);
      const cpu = JSON.parse(cpuRun.resultJson());
      cpuRun.delete();
      const parts = [];
      let pass = true;
      const runsOf = (doc) => doc.cells.flatMap((c) => c.runs.map((r) => ({ cell: c, run: r })));
      // Each run of the batched map against that run alone as a GpuTrainRun: its stop, escape step
      // and final loss recomputed here from the run's own losses. (A batch equals its runs alone bit
      // for bit, a batch of one included: the batch check above; so the map is not run a second time
      // one run at a time.)
      const a = runsOf(batched.doc);
      pass &&= a.length === 8 && batched.batches.length === 4 && batched.batches.every((x) => x.runs === 2);
      parts.push(`batched: ${batched.batches.map((x) => x.runs).join('+')} runs`);
      const bad = [];
      for (const { cell, run } of a) {
        const t = { ...TINY, placement: cell.placement, layers: cell.layers, lr: cell.lr, warmup: cell.warmup, seed: run.seed, steps: cfg.steps };
        const alone = new m.GpuTrainRun(JSON.stringify(t), 8);
        // to the map's stop step (a settled run's steps past it are not the map's; a diverged run
        // that runs on alone fails below, running or stopped at another step)
        const until = run.stopped === 'end' ? cfg.steps : run.stop_step;
        while (alone.status() === 'running' && alone.stepsRecorded() < until) {
          alone.step(Math.min(8, until - alone.stepsRecorded()));
          await m.lnxGpu.settled();
        }
        const doc = JSON.parse(alone.resultJson(0));
        alone.delete();
        const loss = run.stopped === 'settled' ? doc.loss.slice(0, run.stop_step) : doc.loss;
        let sum = 0,
          escape = null;
        for (let k = 0; k < loss.length && escape === null; k++) {
          sum += loss[k];
          if (k >= 10) sum -= loss[k - 10];
          if (k + 1 >= 10 && sum / 10 < batched.doc.plateau_entropy - 0.5) escape = k + 1;
        }
        const last = loss.slice(-10);
        const final = Number((last.reduce((x, y) => x + y, 0) / last.length).toPrecision(9)); // as the documents print it (%.9g)
        const ok =
          run.escape_step === escape &&
          run.final_loss === final &&
          (run.stopped === 'diverged' || run.stopped === 'nan'
            ? doc.status === run.stopped && doc.stop_step === run.stop_step
            : run.stopped === 'end'
              ? doc.status === 'ok' && loss.length === cfg.steps && run.stop_step === cfg.steps
              : run.stopped === 'settled' && loss.length === run.stop_step && run.stop_step === escape + cfg.settle);
        if (!ok)
          bad.push(
            `${cell.placement} L${cell.layers} lr ${cell.lr}: ${run.stopped} at ${run.stop_step}, escape ${run.escape_step} vs ${escape}, final ${run.final_loss} vs ${final}, alone ${doc.status} at ${doc.stop_step}`,
          );
      }
      const kinds = [...new Set(a.map((x) => x.run.stopped))].sort().join(', ');
      pass &&= bad.length === 0 && kinds === 'diverged, end, settled';
      parts.push(`against each run alone (GpuTrainRun): ${bad.length ? bad.join(' | ') : `all ${a.length} agree`} (stops: ${kinds})`);
      // the CPU document's shape
      const sig = (x) =>
        Array.isArray(x)
          ? `[${[...new Set(x.map(sig))].sort().join('|')}]`
          : x && typeof x === 'object'
            ? `{${Object.keys(x)
                .map((k) => `${k}:${sig(x[k])}`)
                .join(',')}}`
            : x === null
              ? 'number'
              : typeof x;
      const body = (d) => ({ ...d, engine: undefined });
      const sameShape = sig(body(batched.doc)) === sig(body(cpu));
      const sameConfig = JSON.stringify(batched.doc.config) === JSON.stringify(cpu.config);
      const cellKey = (c) => `${c.placement}/${c.warmup}/${c.layers}/${c.lr}:${c.outcome}:${c.runs.map((r) => r.outcome).join()}`;
      const sameCells = batched.doc.cells.map(cellKey).join(' ') === cpu.cells.map(cellKey).join(' ');
      pass &&=
        sameShape && sameConfig && sameCells && batched.doc.experiment === 'phase-diagram' && batched.doc.engine.backend === 'webgpu' && !cpu.engine.backend;
      parts.push(
        `against the CPU document: keys and types ${sameShape ? 'same' : 'DIFFER'}, config ${sameConfig ? 'same' : 'DIFFERS'}, cells and outcomes ${sameCells ? 'same' : `DIFFER (${batched.doc.cells.map(cellKey).join(' ')} vs ${cpu.cells.map(cellKey).join(' ')})`}; backend ${batched.doc.engine.backend}`,
      );
      return { pass, detail: parts.join('; ') };
    },

    // A run that blows up stops at the same step on both paths (GPU: the halt flag freezes the update).
    async 'a diverging run stops at the same step on both paths'() {
      const { module: m } = await gpu();
      const cfg = { ...SMALL, placement: 'post', warmup: 0, lr: 0.5, steps: 10, seed: 1 };
      const a = await cpuTrain(m, cfg);
      const b = await gpuTrain(m, cfg, 3);
      const pass = a.status === 'diverged' && b.status === a.status && b.stop_step === a.stop_step && relMax(b.loss, a.loss) <= TOL;
      return { pass, detail: `cpu ${a.status} at ${a.stop_step}, gpu ${b.status} at ${b.stop_step}` };
    },

    // A lost device mid-grid (the page's hand-off, gpu-grid.ts + worker.ts): run 0 finished on the GPU,
    // run 1 stopped at step 10 with a checkpoint at step 8 (parameters and Adam state read back),
    // both handed to a CPU GridRun, which takes run 0 as it is and continues run 1 from step 9. The
    // result equals the CPU grid to the tolerance of the GPU path, and says which steps came from where.
    async 'a grid continued on the CPU from GPU checkpoints equals the CPU grid'() {
      const { module: m } = await gpu();
      const json = JSON.stringify({ ...TINY, steps: 14, placements: ['post'], warmups: [4], lrs: [1e-3], seeds: [0, 1] });
      const ref = new m.GridRun(json);
      while (!ref.done()) ref.step(7);
      const a = JSON.parse(ref.resultJson(0));
      ref.delete();
      const plan = JSON.parse(m.gridPlanJson(json));
      const doc = new m.GridDocument(json);
      const r0 = new m.GpuTrainRun(JSON.stringify(plan.runs[0].train), 4);
      while (r0.status() === 'running') {
        r0.step(5);
        await m.lnxGpu.settled();
      }
      doc.append(0, r0.resultJson(0));
      r0.delete();
      const r1 = new m.GpuTrainRun(JSON.stringify(plan.runs[1].train), 4);
      r1.setCheckpointEvery(4);
      let ckpt = null;
      while (r1.stepsRecorded() < 10) {
        r1.step(Math.min(3, 10 - r1.stepsRecorded()));
        await m.lnxGpu.settled();
        doc.append(1, r1.resultJson(doc.stepsHeld(1)));
        ckpt = r1.takeCheckpoint() ?? ckpt;
      }
      r1.delete();
      const runs = JSON.parse(doc.resultJson(0, 'webgpu')).runs;
      doc.delete();
      const g = new m.GridRun(json);
      runs.forEach((r, i) => g.continueRun(i, JSON.stringify(r), i === 1 ? ckpt : null, 'webgpu'));
      let refused = false;
      try {
        g.continueRun(1, JSON.stringify(runs[0]), ckpt, 'webgpu'); // run 0's document for run 1
      } catch (e) {
        refused = /lnx: .*not run 1/.test(String(e?.message ?? e));
      }
      while (!g.done()) g.step(7);
      const b = JSON.parse(g.resultJson(0));
      g.delete();
      const rels = b.runs.map((r, i) => relMax(r.loss, a.runs[i].loss));
      const pass =
        ckpt?.step === 8 &&
        b.runs.every((r) => r.status === 'ok' && r.loss.length === 14) &&
        b.runs[0].handoff?.steps === 14 &&
        b.runs[1].handoff?.steps === 8 &&
        Math.max(...rels) <= TOL &&
        refused;
      return {
        pass,
        detail: `checkpoint at step ${ckpt?.step} (${ckpt?.values.length} values); handed over: ${b.runs.map((r) => r.handoff?.steps).join(', ')} steps; losses vs the CPU grid max_rel ${e1(Math.max(...rels))}; a wrong run's document refused: ${refused}`,
      };
    },

    async 'probe statistics (Figures 2–3) on both paths'() {
      const { module: m } = await gpu();
      const cfg = PROBE_CFG;
      const a = cpuProbe(m, cfg);
      const g = new m.GpuProbeRun(cfg);
      await driveGpu(
        g,
        () => g.done(),
        () => m.lnxGpu.settled(),
        { chunk: 4 },
      );
      const b = JSON.parse(g.resultJson());
      g.delete();
      const c = compareProbe(a, b);
      const pass = c.where.length === 0 && c.count > 40 && b.engine.backend === 'webgpu';
      return {
        pass,
        detail: `${c.count} numbers: means max_rel ${e1(c.worstMean)}, stds max |Δ|/mean ${e1(c.worstStd)}${c.where.length ? '; ' + c.where.slice(0, 3).join('; ') : ''}`,
      };
    },

    // A probe that loses its GPU (the worker's hand-off, worker.ts): the GPU probe stops part-way,
    // its landed jobs go to a CPU ProbeRun (continueFrom), which measures the rest. The document
    // equals the CPU probe to the GPU path's tolerance and says how many jobs came from the GPU.
    async "a probe continued on the CPU from the GPU's finished jobs equals the CPU probe"() {
      const { module: m } = await gpu();
      const cfg = PROBE_CFG;
      const a = cpuProbe(m, cfg);
      const g = new m.GpuProbeRun(cfg);
      g.step(9); // the first seed's full model (3 batches) and both depths (2 + 2), then the next full model
      await m.lnxGpu.settled();
      g.step(1);
      const handoff = g.handoffJson();
      g.delete();
      const jobs = JSON.parse(handoff).jobs;
      const b = cpuProbe(m, cfg, handoff);
      const c = compareProbe(a, b);
      const pass =
        c.where.length === 0 && c.count > 40 && jobs >= 3 && jobs < 12 && b.handoff?.jobs === jobs && b.handoff?.of === 12 && b.handoff?.backend === 'webgpu';
      return {
        pass,
        detail: `handed over ${jobs} of ${b.handoff?.of} jobs; ${c.count} numbers vs the CPU probe: means max_rel ${e1(c.worstMean)}, stds max |Δ|/mean ${e1(c.worstStd)}${c.where.length ? '; ' + c.where.slice(0, 3).join('; ') : ''}`,
      };
    },
  };
}

/** The checks' names, in order (the first is the adapter's). */
export const ENGINE_CHECK_NAMES = Object.keys(engineChecks(async () => null));
