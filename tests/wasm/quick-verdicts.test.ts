// quick-verdicts.test.ts — the quick settings the page offers (EXPERIMENT_SLOTS[…].small, found by
// scripts/quick-settings-search.mjs; docs/reproduction.md, "Quick settings of the experiment figures")
// give the verdict the reference document gives (public/data/exp/*.json, the engine defaults); and a
// setting too small to show an effect reads 'untested' with the reason (verdicts.js, facts.tooSmall),
// never 'refuted'.
// Each quick setting is checked once, where it costs least. The end-to-end loop (tests/e2e/run.mjs)
// runs every experiment figure's quick setting live in Chromium and asserts the same equality, except
// those it shrinks (tests/e2e/harness.mjs E2E_SHRINK: a minute or more in the browser); those run here
// on the native CLI, 3–4× faster (warmup-length's: 23 s against 88 s on 2 threads): the threaded
// wasm build gives the native build's bits for every experiment (tests/wasm/experiments.test.ts, both
// flavours, 1 and 2 threads), so the verdict is the same document's. So does Figure 4's quick look:
// the end-to-end run presses its preset and runs it shortened; its three toy claims are asked here.
// The native runs take turns, as many at once as there are cores, a process each on one thread
// (runNative); npm test runs this file on its own at the lowest priority (scripts/test.sh). Their
// documents are kept between test runs on this machine under a key of the binary, its libraries,
// the CPU and the arguments (native-run-cache.ts, as ccache keeps objects): an unchanged engine
// is judged again on the documents it wrote, a changed one runs again.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheCounts, cacheDir, cachedRun } from './native-run-cache';
import { loadEngine } from './load';
import type { LnxModule } from '../../public/wasm/lnx';
import * as V from '../../web/src/experiments/verdicts.js';
import { angularUpdate } from '../../web/src/experiments/angular-update';
import { EXPERIMENT_SLOTS, type ExperimentSlot } from '../../web/src/lib/slots';
import { FIGURES as REGISTRY } from '../../web/src/figures/registry';
import { GRID } from '../../web/src/lib/settings';
import { E2E_SHRINK, TEST_FIGS } from '../e2e/harness.mjs';
import { claims as quickLookClaims } from '../../scripts/quick-look-search.mjs';

type Doc = any;
const reference = (file: string): Doc => JSON.parse(readFileSync(new URL(`../../public/data/exp/${file}.json`, import.meta.url), 'utf8'));

const LNX = new URL('../../build/lnx', import.meta.url).pathname;
/** What the CLI reads besides its flags: the article's text, from public/data/text under the
 *  working directory (wasm/cli/lnx.cpp load_texts), for the runs' kept documents' key. */
const TEXTS = ['en', 'zh'].map((l) => `public/data/text/article.${l}.txt`);
/** At most as many native runs at once as the machine has cores; the others wait their turn. Four
 *  copies of one run (angular-update's quick setting) on 2 cores took 16.6 CPU-s each against 14.4
 *  for one alone and 14.7 for two at once (2026-12-05): more processes than cores only take turns
 *  in each other's caches, and this file's six runs had all gone at once. */
const NATIVE_AT_ONCE = Math.max(1, availableParallelism());
/** A test's time holds its wait for a turn and, under `npm test`, runs at the lowest priority beside
 *  the browser stages: Figure M's took 549 s of a 600 s limit in a fresh clone's run (2026-12-05),
 *  its own runs a few minutes of CPU. The limit only catches a run that hangs. */
const TEST_LIMIT_MS = 1_800_000;
let nativeRunning = 0;
const nativeWaiting: (() => void)[] = [];
async function nativeTurn<T>(job: () => Promise<T>): Promise<T> {
  // a finished run hands its place to the first waiting one (nativeRunning stays), so a run started
  // between the hand-over and the waiter's wake-up cannot take the place as well
  if (nativeRunning < NATIVE_AT_ONCE) nativeRunning++;
  else await new Promise<void>((go) => nativeWaiting.push(go));
  try {
    return await job();
  } finally {
    const next = nativeWaiting.shift();
    if (next) next();
    else nativeRunning--;
  }
}
/** The native CLI on one thread, the config as its flags (`--lr-factors 1`, lists comma-separated).
 *  The native runs of this file are started together (describe.concurrent below) and take turns
 *  (nativeTurn), one process each on one thread: on a machine kept busy by Vitest's other worker, a
 *  run on 2 threads used 18% more CPU than on one (its pool spins while it waits for the other half
 *  of a step) and took longer. */
async function runNative(command: string[], config: Record<string, unknown>): Promise<Doc> {
  const flags = Object.entries(config)
    .filter(([, v]) => v != null)
    .flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, Array.isArray(v) ? v.join(',') : String(v)]);
  const args = [...command, '--json', '--threads', '1', ...flags];
  const stdout = await cachedRun(
    LNX,
    args,
    async () => (await nativeTurn(() => promisify(execFile)(LNX, args, { encoding: 'utf8', maxBuffer: 1 << 28 }))).stdout,
    TEXTS,
  );
  return JSON.parse(stdout);
}
afterAll(() => {
  const { ran, reused } = cacheCounts;
  console.log(
    cacheDir
      ? `native runs: ${ran} made, ${reused} kept from an earlier run of the same lnx binary, libraries, CPU and arguments (${cacheDir}; LNX_NO_RUN_CACHE=1 makes them all)`
      : `native runs: ${ran} made (LNX_NO_RUN_CACHE set: none kept)`,
  );
});

let engine: Promise<LnxModule> | null = null;
/** The threaded flavour on 2 threads (the warm-up experiment spreads its runs over them). */
async function run(experiment: string, config: object): Promise<Doc> {
  engine ??= loadEngine('mt').then((m) => (m.setThreads(2), m));
  const m = await engine;
  const r = new m.ExperimentRun(experiment, JSON.stringify(config));
  while (!r.done()) r.step(1);
  const doc = JSON.parse(r.resultJson());
  r.delete();
  return doc;
}

type Judge = (docs: Doc[]) => Record<string, { verdict: string; facts: { tooSmall?: string } }>;
/** Each figure: the slots whose small settings it runs (Figure F: both perturbation kinds), their
 *  reference files, and its verdicts. */
const FIGURES: { name: string; slots: ExperimentSlot[]; judge: Judge }[] = [
  { name: 'A (tied-output)', slots: ['tiedOutput'], judge: ([d]) => ({ tied: V.tiedOutput(d) }) },
  { name: 'B (depth-factors)', slots: ['depthFactors'], judge: ([d]) => ({ df: V.depthFactors(d) }) },
  { name: 'C (adam-first-step)', slots: ['adamFirstStep'], judge: ([d]) => ({ afs: V.adamFirstStep(d) }) },
  { name: 'D (adam-first-step, counterfactuals)', slots: ['adamFirstStepCf'], judge: ([d]) => ({ afscf: V.adamFirstStepCounterfactual(d) }) },
  { name: 'E (step-size)', slots: ['stepSize'], judge: ([d]) => ({ ss: V.stepSize(d) }) },
  { name: 'F (output-sensitivity)', slots: ['outputSensitivity', 'outputSensitivitySign'], judge: ([r, s]) => ({ os: V.outputSensitivity(r, s) }) },
  // Figure H's quick setting: 12 toy runs of 400 steps (the end-to-end test runs that figure live at a
  // setting shrunk below it, to check the page's path at less cost)
  { name: 'H (warmup-length)', slots: ['warmupLength'], judge: ([d]) => ({ wl: V.warmupLength(d), sgd: V.sgdControl(d) }) },
  { name: 'G (sharpness)', slots: ['sharpness'], judge: ([d]) => ({ sh: V.sharpnessWarmup(d), gi: V.sharpnessGiAdam(d) }) },
  { name: 'I (plateau-share)', slots: ['plateauShare'], judge: ([d]) => ({ ps: V.plateauShare(d) }) },
  // Figure J's quick setting: real-text, 8 toy runs of 200 steps on the article's text (the end-to-end
  // test runs it live at 20 steps, too small to show the effect)
  { name: 'J (real-text)', slots: ['realText'], judge: ([d]) => ({ rt: V.realText(d) }) },
  // phase-diagram's claims 10 (fig13) and 9 (fig14): Figure 4's toy at 2 × 32 tokens, 500 steps (the
  // end-to-end test runs them live at 20 steps, too small to show the effects); fig15 (the map) has no
  // verdict
  { name: 'K (phase-diagram, claim 10: fig13)', slots: ['deepNorm'], judge: ([d]) => ({ dn: V.deepNormNoWarmup(d) }) },
  { name: 'M (phase-diagram, claim 9: fig14)', slots: ['preWarmup'], judge: ([d]) => ({ pw: V.preWarmup(d) }) },
  { name: 'L (angular-update: fig20)', slots: ['angularUpdate'], judge: ([d]) => ({ au: angularUpdate(d) }) },
  { name: 'N (lr-sensitivity)', slots: ['lrSensitivity'], judge: ([d]) => ({ ls: V.lrSensitivity(d) }) },
];
const verdictsOf = (j: ReturnType<Judge>) => Object.fromEntries(Object.entries(j).map(([k, v]) => [k, v.verdict]));

/** Whether the end-to-end loop runs this slot's figure at its quick setting (and checks its verdict). */
const inEndToEnd = (slot: ExperimentSlot) => {
  const id = REGISTRY.find((g) => g.slot === slot)?.id;
  return id != null && TEST_FIGS.includes(id) && !(id in E2E_SHRINK);
};

describe.concurrent('the quick setting of each experiment figure gives the reference verdict (native; the rest in the end-to-end run)', () => {
  it('each figure here is a test the end-to-end loop tries (so the ones it runs unshrunk are checked there)', () => {
    for (const f of FIGURES) expect([f.name, TEST_FIGS.includes(REGISTRY.find((g) => g.slot === f.slots[0])?.id ?? '')]).toEqual([f.name, true]);
  });
  for (const f of FIGURES.filter((g) => !inEndToEnd(g.slots[0]))) {
    it(
      `Figure ${f.name} (native)`,
      async () => {
        // the full documents (warmup-length, not its summary: the same groups)
        const want = verdictsOf(f.judge(f.slots.map((s) => reference(EXPERIMENT_SLOTS[s].file.replace(/\.summary$/, '')))));
        const docs = [];
        for (const s of f.slots) {
          const config = { ...EXPERIMENT_SLOTS[s].config, ...EXPERIMENT_SLOTS[s].small };
          docs.push(await runNative(['exp', EXPERIMENT_SLOTS[s].experiment], config));
        }
        expect(verdictsOf(f.judge(docs))).toEqual(want);
      },
      TEST_LIMIT_MS,
    );
  }

  // Figure 4’s quick look (its preset) holds the article’s three toy claims
  it(
    'Figure 4’s quick look (native): Post-LN stalls without warm-up and escapes with it; Pre-LN descends either way (seed mean over 4 seeds)',
    async () => {
      const preset = GRID.presets?.find((p) => p.key === 'quick');
      expect(preset?.from).toBe('reference');
      const ref = JSON.parse(readFileSync(new URL('../../public/data/grid.json', import.meta.url), 'utf8'));
      const config: Record<string, unknown> = { ...ref.config, ...preset!.set };
      const grid = await runNative(['grid'], config);
      expect(grid.runs.length).toBe(16);
      const c = quickLookClaims(grid);
      expect({ ...c, escape_steps: undefined }).toEqual({
        escape_steps: undefined,
        post_without_warmup_stalls: true,
        post_with_warmup_escapes: true,
        pre_descends_either_way: true,
        all_hold: true,
      });
    },
    TEST_LIMIT_MS,
  );
});

// Settings too small to show each effect, cheap; what makes each too small is the rule's
// precondition (verdicts.js), never the numbers that come out.
const TINY = { d: 32, d_ff: 64, vocab: 64, seq: 16, batch: 2 };
const TOO_SMALL: { name: string; experiment: string; configs: object[]; judge: Judge; want: Record<string, string> }[] = [
  {
    name: 'output-sensitivity over depths 2, 4, 8 (ln L has slope 0.79 there)',
    experiment: 'output-sensitivity',
    configs: [
      { ...TINY, depths: [2, 4, 8], seeds: [0] },
      { ...TINY, depths: [2, 4, 8], seeds: [0], perturbation_kind: 'sign_gradient' },
    ],
    judge: ([r, s]) => ({ os: V.outputSensitivity(r, s) }),
    want: { os: 'depth-range' },
  },
  {
    name: 'tied-output over two depths',
    experiment: 'tied-output',
    configs: [{ ...TINY, depths: [2, 4], seeds: [0], depth_batches: 1 }],
    judge: ([d]) => ({ tied: V.tiedOutput(d) }),
    want: { tied: 'depth-range' },
  },
  {
    name: 'depth-factors at 4 layers (Appendix F predicts less than a halving)',
    experiment: 'depth-factors',
    configs: [{ ...TINY, layers: 4, seeds: [0], batches: 1 }],
    judge: ([d]) => ({ df: V.depthFactors(d) }),
    want: { df: 'depth-range' },
  },
  {
    name: "adam-first-step for 5 steps (Adam's momentum horizon is 10)",
    experiment: 'adam-first-step',
    configs: [{ ...EXPERIMENT_SLOTS.adamFirstStep.small, steps: 5 }],
    judge: ([d]) => ({ afs: V.adamFirstStep(d) }),
    want: { afs: 'too-short' },
  },
  {
    name: 'adam-first-step counterfactuals without a gate (no ReZero run)',
    experiment: 'adam-first-step',
    configs: [{ ...TINY, layers: 2, steps: 2, placements: ['post', 'pre'], optimizers: ['adam', 'gi-adam'] }],
    judge: ([d]) => ({ afscf: V.adamFirstStepCounterfactual(d) }),
    want: { afscf: 'no-runs' },
  },
  {
    name: 'step-size over depths 2, 3 (less than a doubling)',
    experiment: 'step-size',
    configs: [{ ...TINY, depths: [2, 3], seeds: [0] }],
    judge: ([d]) => ({ ss: V.stepSize(d) }),
    want: { ss: 'depth-range' },
  },
  {
    name: 'warmup-length for 20 steps (Pre-LN, the positive control, cannot escape yet)',
    experiment: 'warmup-length',
    configs: [{ ...EXPERIMENT_SLOTS.warmupLength.small, d: 64, d_ff: 256, steps: 20, warmups: [0, 10] }],
    judge: ([d]) => ({ wl: V.warmupLength(d), sgd: V.sgdControl(d) }),
    want: { wl: 'too-short', sgd: 'too-short' },
  },
  {
    name: 'warmup-length without SGD runs',
    experiment: 'warmup-length',
    configs: [{ ...EXPERIMENT_SLOTS.warmupLength.small, d: 64, d_ff: 256, steps: 20, warmups: [0, 10], optimizers: ['adam', 'radam'] }],
    judge: ([d]) => ({ sgd: V.sgdControl(d) }),
    want: { sgd: 'no-sgd' },
  },
  {
    name: 'lr-sensitivity over lrs spanning 10× (the expectation needs a range of lrs: 100× at least)',
    experiment: 'lr-sensitivity',
    configs: [{ ...TINY, layers: 1, lrs: [1e-3, 1e-2], steps: 5 }],
    judge: ([d]) => ({ ls: V.lrSensitivity(d) }),
    want: { ls: 'lr-range' },
  },
  {
    name: 'lr-sensitivity for 2 steps (no lr can take Pre-LN 0.5 below its loss at init yet)',
    experiment: 'lr-sensitivity',
    configs: [{ ...TINY, layers: 1, lrs: [1e-5, 1e-3], steps: 2 }],
    judge: ([d]) => ({ ls: V.lrSensitivity(d) }),
    want: { ls: 'too-short' },
  },
  {
    name: 'claim 9 (phase-diagram) for 20 steps (Pre-LN without warm-up, the positive control, cannot leave the plateau yet)',
    experiment: 'phase-diagram',
    configs: [{ ...TINY, placements: ['pre'], depths: [2], lrs: [1e-3, 1e-2], warmups: [0, 10], seeds: [0], steps: 20, early_exit: 'off' }],
    judge: ([d]) => ({ pw: V.preWarmup(d) }),
    want: { pw: 'too-short' },
  },
  {
    name: 'claim 10 (phase-diagram) for 20 steps (Post-LN fails, and so does Pre-LN, the positive control)',
    experiment: 'phase-diagram',
    configs: [{ ...TINY, placements: ['post', 'pre', 'deepnorm'], depths: [2], lrs: [1e-3], warmups: [0], seeds: [0], steps: 20 }],
    judge: ([d]) => ({ dn: V.deepNormNoWarmup(d) }),
    want: { dn: 'too-short' },
  },
  {
    name: 'sharpness measured every 20 steps (2 measured steps in the 25-step window: step 1 and 20)',
    experiment: 'sharpness',
    configs: [{ ...TINY, layers: 2, steps: 25, every: 20, seeds: [0], placements: ['post'] }],
    judge: ([d]) => ({ sh: V.sharpnessWarmup(d), gi: V.sharpnessGiAdam(d) }),
    want: { sh: 'too-short', gi: 'too-short' },
  },
  {
    name: 'sharpness without GI-Adam runs',
    experiment: 'sharpness',
    configs: [{ ...TINY, layers: 2, steps: 25, every: 20, seeds: [0], placements: ['post'], optimizers: ['adam'] }],
    judge: ([d]) => ({ gi: V.sharpnessGiAdam(d) }),
    want: { gi: 'no-runs' },
  },
  {
    name: 'plateau-share for 60 steps (Pre-LN, the positive control, still on the plateau)',
    experiment: 'plateau-share',
    configs: [{ ...EXPERIMENT_SLOTS.plateauShare.small, steps: 60, warmups: [0] }],
    judge: ([d]) => ({ ps: V.plateauShare(d) }),
    want: { ps: 'too-short' },
  },
  {
    name: 'angular-update for 10 steps (fewer than 2/(1 − β1) = 20: the first sign steps would weigh most)',
    experiment: 'angular-update',
    configs: [{ ...TINY, layers: 2, steps: 10, seeds: [0, 1], warmups: [0] }],
    judge: ([d]) => ({ au: angularUpdate(d) }),
    want: { au: 'too-short' },
  },
  {
    name: 'angular-update with one seed (one init draw cannot stand for a placement)',
    experiment: 'angular-update',
    configs: [{ ...TINY, layers: 2, steps: 20, seeds: [0], warmups: [0] }],
    judge: ([d]) => ({ au: angularUpdate(d) }),
    want: { au: 'seeds' },
  },
];

describe('a setting too small to show the effect reads "too small", never refuted (wasm)', () => {
  for (const t of TOO_SMALL) {
    it(
      t.name,
      async () => {
        const docs = [];
        for (const c of t.configs) docs.push(await run(t.experiment, c));
        const judged = t.judge(docs);
        for (const [k, why] of Object.entries(t.want)) {
          expect(judged[k].verdict, k).toBe('untested');
          expect(judged[k].facts.tooSmall, k).toBe(why);
        }
      },
      60_000,
    );
  }
});
