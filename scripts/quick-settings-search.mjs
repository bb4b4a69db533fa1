// quick-settings-search.mjs — finds, for each experiment figure with a verdict (A–J: the slots of EXPERIMENT_SLOTS in
// web/src/lib/result-slots.svelte.ts), the cheapest setting in which the figure's verdict is the one
// the reference document gives (public/data/exp/*.json, the engine defaults; docs/reproduction.md):
// the "quick setting" the page offers a reader, who can then recompute the figure in seconds and see
// the effect, not a refutation that only says the setting was too small.
//
//   node scripts/quick-settings-search.mjs [slot…]     # all slots by default; minutes, native CLI
//   node scripts/quick-settings-search.mjs --list      # the candidates and their costs, nothing run
//   node scripts/quick-settings-search.mjs --verify [slot…]  # rerun the chosen settings (all, or these) with the wasm engine
//
// As scripts/quick-look-search.mjs did for Figure 4, nothing is tuned towards a claim: each slot's
// candidates (below), the order (cheapest first, by the FLOP model `cost`), the budget (a cap on the
// cost relative to the reference setting's) and the criterion (the verdicts of web/src/experiments/verdicts.js
// equal the reference document's) are fixed in this file before the search runs. Every candidate is
// run with `build/lnx exp NAME --json --threads 1` and its flags (the reference's config for the rest);
// the first that meets the criterion is chosen and the search of that slot stops. Figure F's two
// slots (outputSensitivity, outputSensitivitySign) are one search: each candidate runs both
// perturbation kinds, and the verdict is outputSensitivity(random, sign). Figure H's slot (warmup-length) carries two
// verdicts (warmupLength and sgdControl): its candidates with SGD must reproduce both; only if none
// does within the budget are the candidates without SGD tried, whose criterion is the warm-up verdict
// with the SGD control 'untested' (the setting has no SGD runs: too small to test it), never refuted.
// Everything tried goes to docs/data/quick-settings-search.json (setting, cost, seconds, verdicts), from
// which scripts/reproduction.mjs writes its section of docs/reproduction.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

const root = new URL('..', import.meta.url).pathname;
const V = await import(`${root}web/src/experiments/verdicts.js`);
const OUT = `${root}docs/data/quick-settings-search.json`;
const reference = (file) => JSON.parse(readFileSync(`${root}public/data/exp/${file}.json`, 'utf8'));

// ---- the cost model: FLOPs of forward passes (web/src/lib/cost.ts forwardFlops), per experiment ----
const fwd = (m, layers = m.layers) => {
  const N = m.batch * m.seq;
  return layers * (2 * N * 3 * m.d * m.d + 4 * m.batch * m.seq * m.seq * m.d + 4 * N * m.d * m.d_ff) + 2 * N * m.d * m.vocab;
};
const sum = (xs, f) => xs.reduce((a, x) => a + f(x), 0);
/** FLOPs of one run of `experiment` at config `c` (the full config: reference's, candidate's flags over it).
 *  A training step is 3 forwards (cost.ts stepFlops); a gradient at init the same; a probe depth-sweep
 *  batch 1.5 (cost.ts probeFlops). */
const COST = {
  'output-sensitivity': (c) => c.placements.length * c.seeds.length * sum(c.depths, (L) => (c.perturbation_kind === 'sign_gradient' ? 4 : 2) * fwd(c, L)),
  'adam-first-step': (c) => c.placements.length * (c.optimizers?.length ?? 1) * (c.steps + 1) * 3 * fwd(c),
  'step-size': (c) => c.placements.length * c.seeds.length * sum(c.depths, (L) => (3 + c.etas.length + L) * fwd(c, L)),
  'warmup-length': (c) => c.placements.length * c.optimizers.length * c.warmups.length * c.lr_factors.length * c.seeds.length * c.steps * 3 * fwd(c),
  'plateau-share': (c) => c.placements.length * c.warmups.length * (c.steps * 3 + Math.floor(c.steps / c.every) + 1) * fwd(c),
  'tied-output': (c) => 4 * c.placements.length * c.seeds.length * sum(c.depths, (L) => (1.5 * c.depth_batches + 1) * fwd(c, L)),
  'depth-factors': (c) => c.placements.length * c.seeds.length * c.batches * 6 * fwd(c),
  // a step, and per measurement at most lanczos_steps products of two gradients (3 forwards each)
  sharpness: (c) =>
    c.placements.length *
    c.optimizers.length *
    c.warmups.length *
    c.seeds.length *
    (c.steps * 3 + (1 + Math.floor(c.steps / c.every)) * c.lanczos_steps * 6) *
    fwd(c),
  // every run at its full steps (with early exit an upper bound; cost.ts experimentWork)
  // every run at its full steps (a stopped run is cheaper), a logit forward every `every` steps and
  // 2 × 4 fixed batches for ℓ₀ and the final loss
  'lr-sensitivity': (c) => c.placements.length * c.lrs.length * c.seeds.length * (c.steps * 3 + Math.floor(c.steps / c.every) + 1 + 8) * fwd(c),
  'phase-diagram': (c) => c.placements.length * c.warmups.length * c.lrs.length * c.seeds.length * sum(c.depths, (L) => c.steps * 3 * fwd(c, L)),
  // bytes: V = 256 (the experiment has no vocab field)
  'real-text': (c) => c.langs.length * c.placements.length * c.warmups.length * c.seeds.length * c.steps * 3 * fwd({ ...c, vocab: 256 }),
};

// ---- the candidates, per slot (fixed before the search; ordered by cost when it runs) ----
/** A slot's candidates as a table: every combination of its axes (`key: [values…]`, the first axis
 *  varying slowest), each with its derived keys (`key: (c) => value`, from the keys before it), in the
 *  table's key order; a key starting with `_` is an axis that only derived keys read (dropped). */
const table = (spec) =>
  Object.entries(spec)
    .reduce((acc, [k, vs]) => acc.flatMap((a) => (typeof vs === 'function' ? [{ ...a, [k]: vs(a) }] : vs.map((v) => ({ ...a, [k]: v })))), [{}])
    .map((c) => Object.fromEntries(Object.entries(c).filter(([k]) => !k.startsWith('_'))));
/** d_ff = k·d; batch and seq from a `_bn` axis of [batch, seq] pairs. */
const ff = (k) => (c) => k * c.d;
const BN = { batch: (c) => c._bn[0], seq: (c) => c._bn[1] };

/** The batch of the quick look's toy (2 × 32) or of Figure 4's (8 × 64). */
const QUICK_OR_FIGURE4_BATCH = {
  _bn: [
    [2, 32],
    [8, 64],
  ],
  ...BN,
};

/** Figure 4's toy at depth 8, and the candidates' batches and lengths ([batch, seq]: the quick look's,
 *  twice its batch, the reference's [8, 64]); 300 or 500 steps. */
const FIGURE4 = {
  depths: [[8]],
  _bn: [
    [2, 32],
    [4, 32],
    [8, 64],
  ],
  ...BN,
  steps: [300, 500],
};

const SEARCHES = {
  // Figure F. Depth sets from the narrowest to the reference's 2…32, one to three seeds; the model and
  // the five placements as in the reference (the figure draws them all).
  outputSensitivity: {
    experiment: 'output-sensitivity',
    slots: ['outputSensitivity', 'outputSensitivitySign'],
    files: ['output-sensitivity', 'output-sensitivity.sign_gradient'],
    kinds: [{}, { perturbation_kind: 'sign_gradient' }],
    judge: ([random, sign]) => ({ os: V.outputSensitivity(random, sign) }),
    budget: 1,
    groups: [
      {
        candidates: table({
          depths: [
            [2, 4, 8],
            [4, 8],
            [4, 16],
            [8, 16],
            [4, 8, 16],
            [2, 32],
            [2, 8, 32],
            [4, 32],
            [8, 32],
            [4, 8, 16, 32],
            [8, 16, 32],
            [2, 4, 8, 16, 32],
          ],
          seeds: [[0], [0, 1], [0, 1, 2]],
        }),
      },
    ],
  },
  // Figure A. The width (d_ff = 2d, as the reference's 512/1024), the vocabulary, the depths (three or
  // five, from 2–6 to the reference's 6–14) and the batches per depth; one seed.
  tiedOutput: {
    experiment: 'tied-output',
    files: ['tied-output'],
    judge: ([doc]) => ({ tied: V.tiedOutput(doc) }),
    budget: 0.05,
    groups: [
      {
        candidates: table({
          d: [64, 128, 256, 512],
          d_ff: ff(2),
          vocab: [200, 1000],
          depths: [
            [2, 4, 6],
            [4, 6, 8],
            [4, 8, 12],
            [6, 8, 10, 12, 14],
          ],
          seeds: [[0]],
          depth_batches: [2, 5],
        }),
      },
    ],
  },
  // Figure B. Depth 6, 8, 12 or the reference's 24; the width (d_ff = 2d); V = 200; one seed, 2 batches.
  depthFactors: {
    experiment: 'depth-factors',
    files: ['depth-factors'],
    judge: ([doc]) => ({ df: V.depthFactors(doc) }),
    budget: 0.1,
    groups: [
      {
        candidates: table({ layers: [6, 8, 12, 24], d: [64, 128, 256], d_ff: ff(2), vocab: [200], seeds: [[0]], batches: [2] }),
      },
    ],
  },
  // Figure C. Depth, width (d_ff = 4d, as the reference's 128/512) and the steps recorded, up to the
  // reference setting itself (8 layers, d = 128, 50 steps).
  adamFirstStep: {
    experiment: 'adam-first-step',
    files: ['adam-first-step'],
    judge: ([doc]) => ({ afs: V.adamFirstStep(doc) }),
    budget: 1,
    groups: [
      {
        candidates: table({ layers: [4, 6, 8], d: [64, 128], d_ff: ff(4), steps: [10, 20, 50] }),
      },
    ],
  },
  // Figure E. Depth sets and one or two seeds; the model and the η grid as in the reference.
  stepSize: {
    experiment: 'step-size',
    files: ['step-size'],
    judge: ([doc]) => ({ ss: V.stepSize(doc) }),
    budget: 1,
    groups: [
      {
        candidates: table({
          depths: [
            [2, 4],
            [2, 8],
            [4, 8],
            [2, 4, 8],
            [2, 4, 8, 16],
          ],
          seeds: [[0], [0, 1]],
        }),
      },
    ],
  },
  // Figure H (warmup-length). The reference's toy (6 layers, B = 2, n = 32) at d = 64 or 128, fewer steps, warm-ups
  // and seeds, at the smaller lr factor (the rule's). First with SGD (both verdicts), then without.
  warmupLength: {
    experiment: 'warmup-length',
    files: ['warmup-length'],
    judge: ([doc]) => ({ wl: V.warmupLength(doc), sgd: V.sgdControl(doc) }),
    budget: 0.12,
    groups: [
      {
        name: 'with SGD: both verdicts as the reference',
        candidates: table({
          layers: [6],
          d: [64, 128],
          d_ff: ff(4),
          steps: [300, 400],
          warmups: [
            [0, 100],
            [0, 50, 100],
          ],
          seeds: [[0], [0, 1]],
          optimizers: [['adam', 'radam', 'sgd']],
          lr_factors: [[1]],
        }),
      },
      {
        name: 'without SGD: the warm-up verdict as the reference, the SGD control too small to test (untested)',
        want: { sgd: 'untested' },
        candidates: table({
          layers: [6],
          d: [64, 128],
          d_ff: ff(4),
          steps: [200, 300, 400],
          warmups: [
            [0, 50],
            [0, 50, 100],
          ],
          seeds: [[0], [0, 1]],
          optimizers: [['adam', 'radam']],
          lr_factors: [[1]],
        }),
      },
    ],
  },
  // fig19 (real-text). The quick look's toy (6 layers, B = 2, n = 32, 200 steps, warm-ups 0 and 120:
  // the claim is asked at its size) at d = 64 or the reference's 128 (d_ff = 4d), both languages (the
  // rule judges each), one or two seeds.
  realText: {
    experiment: 'real-text',
    files: ['real-text'],
    judge: ([doc]) => ({ rt: V.realText(doc) }),
    budget: 0.5,
    groups: [
      {
        candidates: table({ d: [64, 128], d_ff: ff(4), seeds: [[0], [0, 1]] }),
      },
    ],
  },
  // The sharpness figure. The reference's toy (6 layers, B = 2, n = 32) at d = 64 or 128, one seed,
  // runs of 25 steps (the warm-up's end), 30 or the reference's 50, measured every 5 or 10 steps (10:
  // steps 1, 10, 20 in the 25-step window, the rule's least); both verdicts as the reference's.
  sharpness: {
    experiment: 'sharpness',
    files: ['sharpness'],
    judge: ([doc]) => ({ sh: V.sharpnessWarmup(doc), gi: V.sharpnessGiAdam(doc) }),
    budget: 0.3,
    groups: [
      {
        candidates: table({ layers: [6], d: [64, 128], d_ff: ff(4), steps: [25, 30, 50], every: [5, 10], seeds: [[0]] }),
      },
    ],
  },
  // Claim 10 (fig13). Figure 4's toy at depth 8 with a smaller batch or fewer steps, Figure 4's two
  // lrs, one or two seeds; Post-LN, Pre-LN and DeepNorm without warm-up (the runs the rule reads).
  // Not candidates (this list had them before any was run; a first try ran 5 of them, unrecorded):
  // the smaller lr alone, since one (depth, lr) point can read only confirmed or refuted
  // (deepNormNoWarmup: qualified is "DeepNorm trains at some of the points tested, not all"), never
  // the reference's qualified; and a setting with a warm-up of 0.6 × steps beside, since it repeats
  // the verdict of the same setting without it (each run's model and batches come from its own seed,
  // phase_diagram.cpp: its runs without warm-up are the same) at twice the cost, and would be tried
  // only after that cheaper twin had failed.
  deepNorm: {
    experiment: 'phase-diagram',
    files: ['phase-diagram.deepnorm'],
    judge: ([doc]) => ({ dn: V.deepNormNoWarmup(doc) }),
    budget: 0.15,
    groups: [
      {
        candidates: table({ ...FIGURE4, lrs: [[1e-3, 3e-3]], seeds: [[0], [0, 1]], placements: [['post', 'pre', 'deepnorm']], warmups: [[0]] }),
      },
    ],
  },
  // Claim 9 (fig14). Figure 4's toy at depth 8 with a smaller batch or fewer steps, two to four of
  // the reference's lrs (always its smallest, the rule's positive control, and its largest), one or
  // two seeds; Pre-LN with warm-ups 0 and 100, every run to its end (the final losses are compared).
  preWarmup: {
    experiment: 'phase-diagram',
    files: ['phase-diagram.pre-warmup'],
    judge: ([doc]) => ({ pw: V.preWarmup(doc) }),
    budget: 0.15,
    groups: [
      {
        candidates: table({
          ...FIGURE4,
          lrs: [
            [1e-3, 3e-2],
            [1e-3, 1e-2, 3e-2],
            [1e-3, 3e-3, 1e-2, 3e-2],
          ],
          seeds: [[0], [0, 1]],
          placements: [['pre']],
          warmups: [[0, 100]],
          early_exit: ['off'],
        }),
      },
    ],
  },
  // QK-norm and LR sensitivity (fig18). Depth 2, 4 or the reference's 8, width 64 or 128 (d_ff = 4d),
  // the batch (the quick look's 2 × 32 or Figure 4's 8 × 64), 100, 150 or the reference's 300 steps
  // (the warm-up 5% of them), the reference's 7 lrs or 4 of them spanning the same 1000×, one or two
  // seeds; Pre-LN and the qknorm preset (the defaults), logits every 10 steps.
  lrSensitivity: {
    experiment: 'lr-sensitivity',
    files: ['lr-sensitivity'],
    judge: ([doc]) => ({ ls: V.lrSensitivity(doc) }),
    budget: 0.1,
    groups: [
      {
        candidates: table({
          layers: [2, 4, 8],
          d: [64, 128],
          d_ff: ff(4),
          ...QUICK_OR_FIGURE4_BATCH,
          steps: [100, 150, 300],
          warmup: (c) => Math.round(0.05 * c.steps),
          lrs: [
            [3e-4, 3e-3, 3e-2, 0.3],
            [3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3],
          ],
          seeds: [[0], [0, 1]],
        }),
      },
    ],
  },
  // Figure I (plateau-share). Depth 6 or 8, width (d_ff = 4d), the batch (the warm-up toy's 2 × 32 or Figure 4's 8 × 64)
  // and the steps, with a warm-up of 0.6 × steps beside none (as the quick look); recorded every 10 steps.
  plateauShare: {
    experiment: 'plateau-share',
    files: ['plateau-share'],
    judge: ([doc]) => ({ ps: V.plateauShare(doc) }),
    budget: 0.15,
    groups: [
      {
        candidates: table({
          layers: [6, 8],
          d: [64, 128],
          d_ff: ff(4),
          ...QUICK_OR_FIGURE4_BATCH,
          steps: [150, 200, 300],
          warmups: (c) => [0, Math.round(0.6 * c.steps)],
          every: [10],
        }),
      },
    ],
  },
};

const flags = (c) => Object.entries(c).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, Array.isArray(v) ? v.join(',') : String(v)]);
const lnx = process.env.LNX_CLI ?? `${root}build/lnx`;
function runNative(experiment, c) {
  const out = execFileSync(lnx, ['exp', experiment, '--json', '--threads', '1', ...flags(c)], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return JSON.parse(out);
}
const verdictsOf = (judged) => Object.fromEntries(Object.entries(judged).map(([k, j]) => [k, j.verdict]));
/** The facts each verdict quotes, numbers to 4 significant digits (the record's margins). */
const factsOf = (judged) =>
  JSON.parse(
    JSON.stringify(Object.fromEntries(Object.entries(judged).map(([k, j]) => [k, j.facts])), (_, v) =>
      typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(4)) : v,
    ),
  );
const tooSmallOf = (judged) =>
  Object.fromEntries(
    Object.entries(judged)
      .filter(([, j]) => j.facts.tooSmall)
      .map(([k, j]) => [k, j.facts.tooSmall]),
  );

/** A search's reference: its documents' configs and verdicts, the cost of a reference run. */
function referenceOf(s) {
  const docs = s.files.map(reference);
  const kinds = s.kinds ?? [{}];
  return { docs, verdicts: verdictsOf(s.judge(docs)), cost: kinds.reduce((a, _, i) => a + COST[s.experiment](docs[i].config), 0) };
}
/** A candidate's cost: every document it runs, each at the reference's config with the candidate's flags. */
const costOf = (s, ref, cand) => (s.kinds ?? [{}]).reduce((a, k, i) => a + COST[s.experiment]({ ...ref.docs[i].config, ...cand, ...k }), 0);

function search(name, progress = () => {}) {
  const s = SEARCHES[name];
  const ref = referenceOf(s);
  // every group with its criterion, tried or not (a later group is tried only when no earlier one meets its own)
  const groups = s.groups.map((g) => ({ name: g.name ?? 'candidates', want: { ...ref.verdicts, ...(g.want ?? {}) } }));
  const result = { slots: s.slots ?? [name], experiment: s.experiment, reference_verdicts: ref.verdicts, budget: s.budget, groups, tried: [], chosen: null };
  for (const [gi, g] of s.groups.entries()) {
    const want = groups[gi].want;
    const cands = g.candidates
      .map((c) => ({ config: c, relative_cost: costOf(s, ref, c) / ref.cost }))
      .filter((c) => c.relative_cost <= s.budget)
      .sort((a, b) => a.relative_cost - b.relative_cost);
    for (const c of cands) {
      const t0 = performance.now();
      const docs = (s.kinds ?? [{}]).map((k) => runNative(s.experiment, { ...c.config, ...k }));
      const seconds = (performance.now() - t0) / 1000;
      const judged = s.judge(docs);
      const verdicts = verdictsOf(judged);
      const ok = Object.entries(want).every(([k, v]) => verdicts[k] === v);
      const row = {
        group: gi,
        config: c.config,
        relative_cost: c.relative_cost,
        seconds_native: seconds,
        verdicts,
        too_small: tooSmallOf(judged),
        meets: ok,
        facts: factsOf(judged),
      };
      result.tried.push(row);
      progress(result);
      process.stderr.write(
        `${name} ${JSON.stringify(c.config)} cost ${c.relative_cost.toFixed(4)} ${seconds.toFixed(1)} s: ${JSON.stringify(verdicts)}${ok ? ' ✔' : ''}\n`,
      );
      if (ok) {
        result.chosen = row;
        return result;
      }
    }
  }
  return result;
}

/** The `small` of each slot for a chosen setting (Figure F's sign slot adds its perturbation kind). */
export function smallOf(name, config) {
  const s = SEARCHES[name];
  return Object.fromEntries((s.slots ?? [name]).map((slot, i) => [slot, { ...(s.kinds?.[i] ?? {}), ...config }]));
}

async function verify(only) {
  const doc = JSON.parse(readFileSync(OUT, 'utf8'));
  const { loadEngine } = await import('./load-engine.mjs');
  const m = await loadEngine('mt');
  m.setThreads(0);
  for (const [name, r] of Object.entries(doc.searches)) {
    if (!r.chosen || (only.length && !only.includes(name))) continue;
    const s = SEARCHES[name];
    const load0 = loadavg()[0];
    const t0 = performance.now();
    const docs = (s.kinds ?? [{}]).map((k) => {
      const run = new m.ExperimentRun(s.experiment, JSON.stringify({ ...r.chosen.config, ...k }));
      while (!run.done()) run.step(1);
      const d = JSON.parse(run.resultJson());
      run.delete();
      return d;
    });
    const judged = s.judge(docs);
    r.verified_wasm = {
      build: m.buildFlavour(),
      threads: m.threads(),
      seconds: (performance.now() - t0) / 1000,
      verdicts: verdictsOf(judged),
      too_small: tooSmallOf(judged),
      load_average: [load0, loadavg()[0]].map((x) => Number(x.toFixed(2))),
    };
    process.stderr.write(`verified ${name} with ${m.buildFlavour()}: ${JSON.stringify(r.verified_wasm)}\n`);
  }
  writeFileSync(OUT, JSON.stringify(doc, null, 1) + '\n');
  process.exit(0);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  // a slot of Figure F names its one search
  const names = [...new Set(args.filter((a) => !a.startsWith('--')).map((a) => (a === 'outputSensitivitySign' ? 'outputSensitivity' : a)))];
  if (args.includes('--verify')) await verify(names);
  for (const n of names) if (!SEARCHES[n]) throw new Error(`quick-settings-search: no slot ${n} (${Object.keys(SEARCHES).join(', ')})`);
  const todo = names.length ? names : Object.keys(SEARCHES);
  if (args.includes('--list')) {
    for (const n of todo) {
      const s = SEARCHES[n],
        ref = referenceOf(s);
      console.log(`${n}: reference ${JSON.stringify(ref.verdicts)}, budget ${s.budget}`);
      for (const g of s.groups)
        for (const c of g.candidates.map((c) => ({ c, r: costOf(s, ref, c) / ref.cost })).sort((a, b) => a.r - b.r))
          console.log(`  ${c.r <= s.budget ? ' ' : '✗'} ${c.r.toFixed(4)} ${JSON.stringify(c.c)}`);
    }
    process.exit(0);
  }
  const header = {
    made_by: 'scripts/quick-settings-search.mjs',
    date: new Date().toISOString(),
    engine: 'native CLI (build/lnx), --threads 1',
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? '' },
    criterion: 'the verdicts of web/src/experiments/verdicts.js equal those of the reference document (public/data/exp/*.json, the engine defaults)',
  };
  // a full search starts afresh; a partial one (some slots) keeps the other slots' results, read again
  // before each write, so that searches of different slots can run side by side
  let fresh = { searches: {} };
  const save = (n, result) => {
    const doc = names.length && existsSync(OUT) ? JSON.parse(readFileSync(OUT, 'utf8')) : fresh;
    Object.assign(doc, header);
    doc.searches[n] = result;
    fresh = doc;
    mkdirSync(`${root}docs/data`, { recursive: true });
    writeFileSync(OUT, JSON.stringify(doc, null, 1) + '\n');
    return doc;
  };
  for (const n of todo) {
    // when, and how loaded the machine was (1-minute load average, at the start and at the end): the seconds depend on it
    const started = { date: new Date().toISOString(), load: loadavg()[0] };
    const stamp = (r) => ({ ...r, date: started.date, load_average: [started.load, loadavg()[0]].map((x) => Number(x.toFixed(2))) });
    // saved after every candidate (marked unfinished), so a search stopped early still records what it tried
    const doc = save(n, stamp(search(n, (partial) => save(n, { ...stamp(partial), unfinished: true }))));
    const c = doc.searches[n].chosen;
    console.log(
      `${n}: ${c ? `chosen ${JSON.stringify(c.config)} (${c.seconds_native.toFixed(1)} s native, ${JSON.stringify(c.verdicts)})` : 'no candidate within the budget meets the criterion'}`,
    );
  }
}
