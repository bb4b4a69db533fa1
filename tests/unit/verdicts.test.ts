// verdicts.test.ts — every branch of web/src/experiments/verdicts.js on small hand-made documents, so a verdict
// in docs/reproduction.md changes when, and only when, the numbers it is computed from cross a rule.
import { describe, expect, it } from 'vitest';
import * as V from '../../web/src/experiments/verdicts.js';
import { AU_FACTOR, angularUpdate, earlyAngle, meanAngle } from '../../web/src/experiments/angular-update';
import { angularUpdate as auDoc } from './fixtures';

// `steps` recorded steps (update RMS / lr and gradient norm at step 1, then the later value)
const afs = (rms1: number[], g1: number[], rmsT: number[], steps = 20) => ({
  config: { beta1: 0.9 },
  runs: [
    { placement: 'post', optimizer: 'adam', update_rms: [rms1[0], ...Array(steps - 1).fill(rmsT[0])], grad_norm: [g1[0], ...Array(steps - 1).fill(1)] },
    { placement: 'pre', optimizer: 'adam', update_rms: [rms1[1], ...Array(steps - 1).fill(rmsT[1])], grad_norm: [g1[1], ...Array(steps - 1).fill(1)] },
  ],
});

describe('adam-first-step', () => {
  it.each([
    ['confirmed', afs([0.99, 1.0], [2.6, 1.7], [0.3, 0.31]), undefined],
    ['qualified', afs([0.99, 1.0], [2.6, 1.7], [0.05, 0.27]), undefined],
    ['qualified', afs([0.99, 1.0], [2.6, 1.7], [0.05, 0.27], 10), undefined], // 10 steps = 1/(1 − β1): long enough
    ['refuted', afs([0.7, 1.0], [2.6, 1.7], [0.3, 0.3]), undefined],
    ['refuted', afs([0.7, 1.0], [2.6, 1.7], [0.3, 0.3], 3), undefined], // step 1 fails: a short run refutes it all the same
    ['untested', afs([0.99, 1.0], [1.0, 1.1], [0.3, 0.3]), 'no-gap'], // no gradient gap for Adam to hide
    ['untested', afs([0.99, 1.0], [2.6, 1.7], [0.05, 0.27], 5), 'too-short'], // shorter than Adam's momentum horizon
  ])('%s (%#)', (verdict, doc, why) => {
    const j = V.adamFirstStep(doc);
    expect(j.verdict).toBe(verdict);
    expect(j.facts.tooSmall).toBe(why);
  });
  it('the momentum horizon follows β1', () => {
    expect(V.adamFirstStep(afs([0.99, 1.0], [2.6, 1.7], [0.05, 0.27], 10)).facts.minSteps).toBe(10);
    expect(V.adamFirstStep({ ...afs([0.99, 1.0], [2.6, 1.7], [0.05, 0.27], 10), config: { beta1: 0.95 } }).facts).toMatchObject({
      minSteps: 20,
      tooSmall: 'too-short',
    });
  });
});

describe('afsByPlacement', () => {
  it("keys one optimizer's runs by placement (the first run's optimizer by default)", () => {
    const doc = {
      runs: [
        { placement: 'pre', optimizer: 'gi-adam' },
        { placement: 'pre', optimizer: 'adam' },
        { placement: 'post', optimizer: 'adam' },
      ],
    };
    expect(Object.keys(V.afsByPlacement(doc))).toEqual(['pre']);
    expect(V.afsByPlacement(doc, 'adam')).toEqual({ pre: doc.runs[1], post: doc.runs[2] });
    expect(V.afsByPlacement({})).toEqual({});
  });
});

// a counterfactual run: step-1 update RMS / lr `rms1`, gradient norm `g1`; `gate`: one tensor of 90
// coordinates with an all-zero step-1 gradient that moves `zeroStep` at step 1 (and 0.7 at step 2)
const cfRun = (placement: string, optimizer: string, rms1: number, g1: number, gate?: number) => ({
  placement,
  optimizer,
  update_rms: [rms1, 0.7],
  grad_norm: [g1, 1],
  tensors: [
    { name: 'E', size: 10, grad_rms1: 1e-3, zero_grad_share1: 0, step_over_lr: [rms1, 0.7] },
    { name: 'bk', size: 2, grad_rms1: 5e-10, zero_grad_share1: 0, step_over_lr: [0.05, 0.03] },
    ...(gate === undefined ? [] : [{ name: 'W', size: 90, grad_rms1: 0, zero_grad_share1: 1, step_over_lr: [gate, 0.7] }]),
  ],
});
const cf = (...runs: ReturnType<typeof cfRun>[]) => ({ config: { beta2: 0.98, eps: 1e-8 }, runs });
describe('adam-first-step counterfactuals', () => {
  const adam = [cfRun('post', 'adam', 0.999, 2.6), cfRun('pre', 'adam', 0.999, 1.7)];
  it.each([
    ['confirmed', cf(...adam, cfRun('rezero', 'adam', 0.3, 0.7, 0), cfRun('post', 'gi-adam', 0.1414, 2.6), cfRun('pre', 'gi-adam', 0.1412, 1.7)), undefined],
    // the gate's branch weights move (not exactly 0)
    ['refuted', cf(cfRun('rezero', 'adam', 0.3, 0.7, 1e-7), cfRun('post', 'gi-adam', 0.1414, 2.6), cfRun('pre', 'gi-adam', 0.1412, 1.7)), undefined],
    // GI-Adam steps lr, not √(1 − β2)·lr
    ['refuted', cf(cfRun('rezero', 'adam', 0.3, 0.7, 0), cfRun('post', 'gi-adam', 0.999, 2.6), cfRun('pre', 'gi-adam', 0.999, 1.7)), undefined],
    // GI-Adam's step follows the gradient's scale (within 5% of √(1 − β2) each, but 7% apart)
    ['refuted', cf(cfRun('rezero', 'adam', 0.3, 0.7, 0), cfRun('post', 'gi-adam', 0.146, 2.6), cfRun('pre', 'gi-adam', 0.136, 1.7)), undefined],
    ['untested', cf(...adam, cfRun('post', 'gi-adam', 0.1414, 2.6), cfRun('pre', 'gi-adam', 0.1412, 1.7)), 'no-runs'], // no gated run
    ['untested', cf(cfRun('rezero', 'adam', 0.3, 0.7, 0), cfRun('pre', 'gi-adam', 0.1412, 1.7)), 'no-runs'], // one GI-Adam run
    // a gated GI-Adam run is not one of the scale comparison's
    ['untested', cf(cfRun('rezero', 'gi-adam', 0.05, 0.7, 0), cfRun('pre', 'gi-adam', 0.1412, 1.7)), 'no-runs'],
    ['untested', cf(cfRun('rezero', 'adam', 0.3, 0.7, 0), cfRun('post', 'gi-adam', 0.1414, 1.8), cfRun('pre', 'gi-adam', 0.1412, 1.7)), 'no-gap'],
  ])('%s (%#)', (verdict, doc, why) => {
    const j = V.adamFirstStepCounterfactual(doc);
    expect(j.verdict).toBe(verdict);
    expect(j.facts.tooSmall).toBe(why);
  });
  it('states the frozen share, the step after the gate opens, and the near-zero gradients', () => {
    const f = V.adamFirstStepCounterfactual(
      cf(cfRun('rezero', 'adam', 0.3, 0.7, 0), cfRun('post', 'gi-adam', 0.1414, 2.6), cfRun('pre', 'gi-adam', 0.1412, 1.7)),
    ).facts;
    expect(f.gated).toEqual([{ placement: 'rezero', optimizer: 'adam', frozenShare: 90 / 102, rms1: 0.3, zeroStep1: 0, zeroStep2: expect.closeTo(0.7, 12) }]);
    expect(f.giExpected).toBeCloseTo(Math.sqrt(0.02), 12);
    expect(f.tiny.map((t) => `${t.placement}/${t.optimizer}/${t.name}`)).toEqual(['rezero/adam/bk', 'post/gi-adam/bk', 'pre/gi-adam/bk']);
  });
  it('reads √(1 − β2) from the document', () => {
    const doc = { ...cf(cfRun('rezero', 'adam', 0.3, 0.7, 0), cfRun('post', 'gi-adam', 0.3, 2.6), cfRun('pre', 'gi-adam', 0.3, 1.7)), config: { beta2: 0.91 } };
    expect(V.adamFirstStepCounterfactual(doc).verdict).toBe('confirmed');
  });
});

// one depth's entry: one-layer effect `perLayer`, argmin `eta`, near-best range `near` (default: the argmin alone)
const cell = (layers: number, perLayer: number, eta: number, near: [number, number] = [eta, eta]) => ({
  layers,
  eta_star_of_mean: eta,
  eta_near_best: near,
  eta_max_useful: near[1],
  layer_dlogits2: Array.from({ length: layers }, () => ({ mean: perLayer })),
});
describe('step-size', () => {
  const post = [cell(2, 0.03, 0.03), cell(16, 0.13, 0.005)];
  it.each([
    ['confirmed', [cell(2, 0.02, 0.01), cell(16, 0.03, 0.02)]],
    ['qualified', [cell(2, 0.02, 0.03), cell(16, 0.03, 0.002)]],
    ['qualified', [cell(2, 0.02, 0.03, [0.02, 0.03]), cell(16, 0.03, 0.002, [0.001, 0.005])]], // ranges apart: falls
    // the argmin falls 0.03 → 0.002 but the near-best ranges overlap: no trend, nothing to qualify
    ['confirmed', [cell(2, 0.02, 0.03, [0.002, 0.03]), cell(16, 0.03, 0.002, [0.001, 0.005])]],
    ['confirmed', [cell(2, 0.02, 0.03, [0.005, 0.03]), cell(16, 0.03, 0.002, [0.001, 0.005])]], // touching ranges overlap
    ['refuted', [cell(2, 0.02, 0.03), cell(16, 0.1, 0.03)]],
    ['refuted', [cell(2, 0.02, 0.03, [0.02, 0.03]), cell(16, 0.1, 0.002, [0.001, 0.002])]], // η falls, but the one-layer rule fails
  ])('%s (%#)', (verdict, pre) => expect(V.stepSize({ placements: { post, pre } }).verdict).toBe(verdict));
  it.each([
    [[1, 2], [3, 4], 'rises'],
    [[3, 4], [1, 2], 'falls'],
    [[1, 3], [2, 4], 'overlap'],
    [[1, 2], [2, 3], 'overlap'],
    [[2, 2], [2, 2], 'overlap'],
  ] as [number, number][][])('etaTrend(%j, %j) is %s', (a, b, t) => expect(V.etaTrend(a as [number, number], b as [number, number])).toBe(t));
  it('reads successive depths from the ranges, for both placements', () => {
    const p = [
      cell(2, 0.03, 0.03, [0.02, 0.03]),
      cell(4, 0.05, 0.002, [0.002, 0.005]),
      cell(8, 0.1, 0.001, [0.0005, 0.002]),
      cell(16, 0.13, 0.005, [0.0005, 0.02]),
    ];
    const q = [
      cell(2, 0.02, 0.03, [0.02, 0.03]),
      cell(4, 0.02, 0.03, [0.01, 0.03]),
      cell(8, 0.01, 0.005, [0.005, 0.005]),
      cell(16, 0.005, 0.002, [0.001, 0.002]),
    ];
    const f = V.stepSize({ config: { eta_margin: 0.01 }, placements: { post: p, pre: q } }).facts;
    expect(f.stepsPost).toEqual(['falls', 'overlap', 'overlap']);
    expect(f.stepsPre).toEqual(['overlap', 'falls', 'falls']);
    expect(f).toMatchObject({ trendPre: 'falls', depthFirst: 2, depthLast: 16, etaNearPreFirstLo: 0.02, etaNearPreLastHi: 0.002, margin: 0.01 });
    expect(f.usefulPost).toEqual([0.03, 0.005, 0.002, 0.02]);
  });
  it.each([
    [[2, 3]], // less than a doubling: under the damping (1/L) the ratio cannot halve
    [[8]], // one depth
  ])('untested (depth-range) over depths %j, whatever the numbers', (depths) => {
    const at = (perLayer: number) => depths.map((L) => cell(L, perLayer, 0.01));
    const j = V.stepSize({ placements: { post: at(0.1), pre: at(0.001) } });
    expect(j.verdict).toBe('untested');
    expect(j.facts.tooSmall).toBe('depth-range');
  });
});

const os = (slopes: Record<string, number>, depths = [2, 4, 8, 16, 32]) => ({
  config: { depths },
  placements: Object.fromEntries(Object.entries(slopes).map(([p, slope]) => [p, { slope, depths: depths.map((layers) => ({ layers })) }])),
});
describe('output-sensitivity', () => {
  it.each([
    ['confirmed', os({ post: 0.9, pre: 0.3, admin: 0.3 }), null],
    ['confirmed', os({ post: 0.9, pre: 0.3 }), os({ post: 1, pre: 0.5 })],
    ['qualified', os({ post: 0.9, pre: 0.3 }), os({ post: 1, pre: 1.1 })],
    ['qualified', os({ post: 0.9, pre: 0.3 }, [8, 16]), os({ post: 1, pre: 1.1 }, [8, 16])], // ln L's slope over 8, 16: 0.41
    ['refuted', os({ post: 0.6, pre: 0.3 }), null],
    ['refuted', os({ post: 0.9, pre: 0.3, admin: 0.8 }), null],
  ])('%s', (verdict, random, sign) => expect(V.outputSensitivity(random, sign).verdict).toBe(verdict));
  it.each([
    ['2, 4, 8 (ln L has slope 0.79 there)', os({ post: 0.4, pre: 0.25 }, [2, 4, 8]), null, 0.792],
    ['2, 4, 8, 16', os({ post: 0.9, pre: 0.3 }, [2, 4, 8, 16]), null, 0.658],
    ['one depth', os({ post: 0.9, pre: 0.3 }, [8]), null, null],
    ['2, 4, 8 in the sign document', os({ post: 0.9, pre: 0.3 }), os({ post: 1, pre: 1.1 }, [2, 4, 8]), 0.792],
  ])('untested (depth-range) over %s: O(log L) itself would fail the rule', (_, random, sign, lnSlope) => {
    const j = V.outputSensitivity(random, sign);
    expect(j.verdict).toBe('untested');
    expect(j.facts.tooSmall).toBe('depth-range');
    if (lnSlope == null) expect(j.facts.lnSlope).toBeNull();
    else expect(j.facts.lnSlope).toBeCloseTo(lnSlope, 3);
  });
  it('ln L over the reference depths 2 … 32 has a least-squares slope of 0.56 (0.58 between the end points)', () => {
    expect(V.logGrowthSlope([2, 4, 8, 16, 32])).toBeCloseTo(0.564, 3);
    expect(V.logGrowthSlope([1, 2])).toBeNull();
  });
});

const wl = (esc: Record<string, number | null>, steps = 400) => ({
  config: { steps },
  groups: Object.entries(esc)
    .map(([k, e]) => {
      const [placement, optimizer, warmup] = k.split(':');
      return { placement, optimizer, warmup: Number(warmup), lr: optimizer === 'sgd' ? 0.05 : 1e-3, escape_step: e };
    })
    .concat([{ placement: 'post', optimizer: 'adam', warmup: 0, lr: 3e-3, escape_step: 7 }]),
});
describe('warmup-length', () => {
  const all = { 'post:adam:0': null, 'post:adam:50': 120, 'post:radam:0': 90, 'pre:adam:0': 60 };
  it.each([
    ['confirmed', all],
    ['refuted', { ...all, 'post:radam:0': null }],
    ['refuted', { ...all, 'post:adam:50': null }],
  ])('%s', (verdict, esc) => expect(V.warmupLength(wl(esc)).verdict).toBe(verdict));
  it.each([
    ['no-failure', { ...all, 'post:adam:0': 200 }, 400], // Post-LN + Adam escapes without warm-up: nothing to remove
    ['too-short', { ...all, 'pre:adam:0': null }, 400], // the positive control, Pre-LN + Adam, does not escape
    ['too-short', { ...all, 'post:adam:50': null }, 100], // warm-up 50 + Pre-LN's 60 steps > 100: no room after the warm-up
    ['too-short', { ...all, 'post:radam:0': null }, 150], // RAdam's built-in warm-up 2/(1 − β2) = 100 + 60 > 150
  ])('untested (%s)', (why, esc, steps) => {
    const j = V.warmupLength(wl(esc, steps));
    expect(j.verdict).toBe('untested');
    expect(j.facts.tooSmall).toBe(why);
  });
  it('a remedy that fails with room to escape refutes; one that escapes needs no room', () => {
    expect(V.warmupLength(wl({ ...all, 'post:radam:0': null }, 160)).verdict).toBe('refuted');
    expect(V.warmupLength(wl(all, 100)).verdict).toBe('confirmed');
  });
  it('names the shortest warm-up that escapes, at the smallest lr', () => {
    const f = V.warmupLength(wl({ ...all, 'post:adam:25': null })).facts;
    expect(f.firstWarmupThatEscapes).toBe(50);
    expect(f.lr).toBe(1e-3);
  });
});

const ps = (loss: number, status: string, share0: number, shareEnd: number) => ({
  plateau_entropy: 5.38,
  runs: [
    {
      placement: 'post',
      warmup: 0,
      status,
      loss: Array(60).fill(loss),
      share: [
        [0.9, share0],
        [0.5, shareEnd],
      ],
    },
    {
      placement: 'pre',
      warmup: 0,
      status: 'ok',
      loss: Array(60).fill(2),
      share: [
        [0.9, 0.8],
        [0.7, 0.6],
      ],
    },
  ],
});
describe('plateau-share', () => {
  it.each([
    ['confirmed', ps(5.4, 'ok', 0.8, 0.1)],
    ['refuted', ps(5.4, 'ok', 0.8, 0.7)],
    ['untested', ps(3.0, 'ok', 0.8, 0.1)],
    ['untested', ps(5.4, 'diverged', 0.8, 0.1)],
  ])('%s', (verdict, doc) => expect(V.plateauShare(doc).verdict).toBe(verdict));
  it('untested (no-stall) when the Post-LN run leaves the plateau', () => expect(V.plateauShare(ps(3.0, 'ok', 0.8, 0.1)).facts.tooSmall).toBe('no-stall'));
  it('untested (too-short) when Pre-LN without warm-up, the positive control, is still on the plateau', () => {
    const doc = ps(5.4, 'ok', 0.8, 0.1);
    doc.runs[1].loss = Array(60).fill(5.2); // not 0.3 below 5.38
    const j = V.plateauShare(doc);
    expect(j.verdict).toBe('untested');
    expect(j.facts.tooSmall).toBe('too-short');
    expect(j.facts.preEndLoss).toBeCloseTo(5.2, 9);
  });
});

const to = (s: Record<string, number>, depths = [6, 8, 10, 12, 14]) => ({
  uniform_p: 0.001,
  variants: Object.entries(s).map(([k, slope]) => {
    const [output, input_scale] = k.split(':');
    return { output, input_scale, placements: { pre: { slope_per_batch: slope, depths: depths.map((layers) => ({ layers, p_current: { mean: 0.8 } })) } } };
  }),
});
describe('tied-output', () => {
  const base = { 'tied:sqrt_d': -1.7, 'tied:none': -0.55, 'untied:sqrt_d': -0.55, 'untied:none': -0.57 };
  it.each([
    ['confirmed', base],
    ['refuted', { ...base, 'tied:sqrt_d': -0.6 }],
    ['refuted', { ...base, 'untied:none': -1.6 }],
  ])('%s', (verdict, s) => expect(V.tiedOutput(to(s)).verdict).toBe(verdict));
  it.each([
    [[2, 4]], // two depths: a line through two points
    [[6, 8, 10]], // three depths, but less than a doubling
  ])('untested (depth-range) over depths %j, whatever the slopes', (depths) => {
    for (const s of [base, { ...base, 'tied:sqrt_d': -0.6 }]) {
      const j = V.tiedOutput(to(s, depths));
      expect(j.verdict).toBe('untested');
      expect(j.facts.tooSmall).toBe('depth-range');
    }
  });
});

// SGD groups (placement:warm-up → escape step) beside the positive control, Pre-LN + Adam without
// warm-up (escaping at `preAdam0`), in a run of `steps` steps
const sgd = (esc: Record<string, number | null>, steps = 400, preAdam0: number | null = 54) => ({
  config: { steps },
  groups: Object.entries(esc)
    .map(([k, e]) => {
      const [placement, warmup] = k.split(':');
      return { placement, optimizer: 'sgd', warmup: Number(warmup), lr: 0.05, escape_step: e };
    })
    .concat([{ placement: 'pre', optimizer: 'adam', warmup: 0, lr: 1e-3, escape_step: preAdam0 }]),
});
describe('sgd control', () => {
  const base = { 'post:0': null, 'post:100': 380, 'pre:0': 60 };
  it.each([
    ['refuted', base],
    ['confirmed', { ...base, 'pre:0': null }],
    ['qualified', { ...base, 'post:100': null }],
    ['untested', { ...base, 'post:0': 90 }],
  ])('%s', (verdict, esc) => expect(V.sgdControl(sgd(esc)).verdict).toBe(verdict));
  it.each([
    ['no-sgd', { groups: [] }],
    ['no-sgd', wl({ 'post:adam:0': null, 'pre:adam:0': 60 })], // Adam runs only
    ['no-failure', sgd({ ...base, 'post:0': 90 })],
    ['too-short', sgd({ ...base, 'pre:0': null }, 400, null)], // SGD fails, but so does the positive control (Adam)
    ['too-short', sgd({ ...base, 'post:100': null }, 150)], // warm-up 100 + Pre-LN + SGD's 60 steps > 150
  ])('untested (%s)', (why, doc) => {
    const j = V.sgdControl(doc);
    expect(j.verdict).toBe('untested');
    expect(j.facts.tooSmall).toBe(why);
  });
  it('has every fact its sentence quotes even without SGD runs', () =>
    expect(Object.keys(V.sgdControl({ groups: [] }).facts)).toEqual(
      expect.arrayContaining(['lr', 'post0', 'pre0', 'firstWarmupThatEscapes', 'steps', 'preAdam0']),
    ));
});

// A depth-factors document of L = 24 layers whose Post-LN profile has first/last ratio r and whose
// per-layer geometric means are the given norm and residual factors.
const df = (r: number, norm: number, residual: number, L = 24) => ({
  layers: L,
  placements: {
    post: {
      W2_per_batch: { mean: [r, 1] },
      first_over_last: r,
      appendix_f_first_over_last: (2 / 3) ** ((L - 1) / 2),
      geomean_per_layer: { norm_factor: norm, residual_factor: residual, factor: norm * residual },
      factors: [1, 2].map(() => ({ ffn: { norm_factor: { mean: 0.82 }, residual_factor: { mean: 1.2 } } })),
    },
  },
});
describe('depth-factors', () => {
  it.each([
    ['confirmed', df(1.05, 0.7, 1.4)], // flat; the norms shrink, the residual Jacobian gives it back
    ['qualified', df(1.05, 0.99, 1.0)], // flat, but the norms hardly shrink anything
    ['qualified', df(1.05, 0.7, 1.0)], // flat, yet the residual factor does not restore the norms' loss
    ['refuted', df(0.08, 0.7, 1.1)], // |ln r| = 2.5 ≥ ½·|ln r_F| = 2.33: as close to the decay as to flat
    ['refuted', df(1 / 0.08, 0.7, 1.4)], // a rise as steep counts the same
    ['confirmed', df(1.05, 0.7, 1.4, 5)], // 5 layers: Appendix F predicts (2/3)^2 = 0.44, at least a halving
    ['untested', df(1.05, 0.7, 1.4, 4)], // 4 layers: (2/3)^1.5 = 0.54, not a halving: too small
    ['untested', df(0.5, 0.7, 1.1, 4)], // ... whatever the profile
  ])('%s (%#)', (verdict, doc) => expect(V.depthFactors(doc).verdict).toBe(verdict));
  it('untested (depth-range) below 5 layers', () => expect(V.depthFactors(df(1.05, 0.7, 1.4, 2)).facts.tooSmall).toBe('depth-range'));
  it('facts carry the measured and predicted ratios', () => {
    const { facts } = V.depthFactors(df(1.05, 0.7, 1.4));
    expect(facts.L).toBe(24);
    expect(facts.rF).toBeCloseTo((2 / 3) ** 11.5, 12);
    expect(facts.ffnNorm).toBeCloseTo(0.82, 12);
  });
});

// ---- phase-diagram: claims 9 and 10 ----
// a run: its outcome, escape step, final loss and why it stopped ('end' unless given)
type PdRun = { outcome: string; escape_step: number | null; final_loss: number; stopped?: string };
const tr = (escape_step: number, final_loss = 1.6, stopped = 'end'): PdRun => ({ outcome: 'trained', escape_step, final_loss, stopped });
const stuck: PdRun = { outcome: 'plateau', escape_step: null, final_loss: 5.4 };
const blown: PdRun = { outcome: 'diverged', escape_step: null, final_loss: 6, stopped: 'diverged' };
/** A cell with one run per seed; its outcome is the seeds' majority, else 'mixed'. */
const pdCell = (placement: string, warmup: number, lr: number, runs: PdRun[], layers = 8) => {
  const n = (o: string) => runs.filter((r) => r.outcome === o).length;
  const outcome = ['trained', 'plateau', 'diverged'].find((o) => 2 * n(o) > runs.length) ?? 'mixed';
  return { placement, warmup, layers, lr, outcome, runs: runs.map((r, seed) => ({ seed, stopped: 'end', ...r })) };
};
const pd = (cells: ReturnType<typeof pdCell>[], steps = 500) => ({ config: { steps }, cells });

describe('phase-diagram: Pre-LN warm-up as insurance (claim 9)', () => {
  // per lr: the runs without warm-up and with a warm-up of 100
  const doc = (rows: [number, PdRun[], PdRun[]][], steps = 500, W = 100) =>
    pd(
      rows.flatMap(([lr, a, b]) => [pdCell('pre', 0, lr, a), pdCell('pre', W, lr, b)]),
      steps,
    );
  const easy: [number, PdRun[], PdRun[]] = [1e-3, [tr(40), tr(44)], [tr(90), tr(96)]];
  it.each([
    ['confirmed', [easy, [3e-3, [tr(30), tr(32)], [tr(80), tr(84)]]]],
    ['confirmed', [easy, [3e-2, [blown, blown], [blown, blown]]]], // both fail at 3e-2: no rescue, no harm
    ['qualified', [easy, [3e-2, [blown, blown], [tr(120), tr(130)]]]], // warm-up rescues at 3e-2
    ['qualified', [easy, [3e-2, [tr(50), blown], [tr(120), tr(130)]]]], // mixed without, trained with: rescued
    ['refuted', [easy, [1e-2, [tr(40), tr(40)], [stuck, stuck]]]], // harmed
    ['refuted', [easy, [1e-2, [tr(40), tr(40)], [tr(40), stuck]]]], // trained → mixed is harm too
    ['refuted', [[1e-3, [tr(10), tr(10)], [tr(150), tr(150)]]]], // a delay of 140 > the warm-up's 100
    ['refuted', [[1e-3, [tr(10), tr(10)], [tr(110), tr(111)]]]], // 100.5 > 100: the rule reads the delay exact (the sentence says 101)
    ['refuted', [[1e-3, [tr(40, 1.6), tr(40, 1.6)], [tr(90, 1.75), tr(90, 1.75)]]]], // 0.15 nats higher at the end
  ] as [string, [number, PdRun[], PdRun[]][]][])('%s (%#)', (verdict, rows) => {
    const j = V.preWarmup(doc(rows));
    expect(j.verdict).toBe(verdict);
    expect(j.facts.tooSmall).toBeUndefined();
  });
  it('quotes whole steps', () => {
    const f = V.preWarmup(doc([[1e-3, [tr(40), tr(41)], [tr(90), tr(92)]]])).facts;
    expect(f.delays).toEqual([50.5]);
    expect(f).toMatchObject({ delayMean: 51, delayMax: 51, esc0Lo: 41 });
  });
  it('a final-loss gap counts only between runs that ran to the end', () => {
    const settled = [[1e-3, [tr(40, 1.6, 'settled'), tr(40, 1.6, 'settled')], [tr(90, 2.5, 'settled'), tr(90, 2.5, 'settled')]]] as [
      number,
      PdRun[],
      PdRun[],
    ][];
    const j = V.preWarmup(doc(settled));
    expect(j.verdict).toBe('confirmed');
    expect(j.facts.finalGapMax).toBeNull();
  });
  it('states where warm-up changes the outcome and what it costs where it does not', () => {
    const f = V.preWarmup(doc([easy, [1e-2, [tr(30), tr(34)], [tr(70), tr(80)]], [3e-2, [blown, stuck], [tr(120), tr(130)]]])).facts;
    expect(f).toMatchObject({
      W: 100,
      lrs: [1e-3, 1e-2, 3e-2],
      lrsRescued: [3e-2],
      lrsHarmed: [],
      lrsNeither: [],
      lrsBoth: [1e-3, 1e-2],
      lrLo: 1e-3,
      esc0Lo: 42,
    });
    expect(f.out0).toEqual(['trained', 'trained', 'mixed']);
    expect(f.delays).toEqual([51, 43, null]);
    expect(f.delayMean).toBe(47);
    expect(f.delayMax).toBe(51);
    expect(f.finalGapMax).toBe(0);
  });
  it.each([
    ['too-short', doc([[1e-3, [stuck, stuck], [tr(200), tr(200)]]])], // the positive control does not train
    ['too-short', doc([easy], 130)], // warm-up 100 + escape 42 > 130 steps: no room after the warm-up
    ['no-warmup', pd([pdCell('pre', 0, 1e-3, [tr(40)])])],
    ['no-warmup', pd([pdCell('pre', 100, 1e-3, [tr(40)])])],
    ['no-placement', pd([pdCell('post', 0, 1e-3, [tr(40)]), pdCell('post', 100, 1e-3, [tr(40)])])],
  ])('untested (%s)', (why, d) => {
    const j = V.preWarmup(d);
    expect(j.verdict).toBe('untested');
    expect(j.facts.tooSmall).toBe(why);
  });
});

describe('phase-diagram: DeepNorm without warm-up (claim 10)', () => {
  // per placement and lr: the runs without warm-up, and with a warm-up of 300 (all trained)
  const doc = (at: Record<string, Record<number, PdRun[]>>) =>
    pd(
      Object.entries(at).flatMap(([p, byLr]) =>
        Object.entries(byLr).flatMap(([lr, runs]) => [pdCell(p, 0, Number(lr), runs), pdCell(p, 300, Number(lr), [tr(150), tr(160)])]),
      ),
    );
  const post = { 1e-3: [stuck, stuck], 3e-3: [stuck, stuck] };
  const pre = { 1e-3: [tr(40), tr(45)], 3e-3: [tr(30), tr(35)] };
  it.each([
    ['confirmed', { post, pre, deepnorm: { 1e-3: [tr(60), tr(70)], 3e-3: [tr(50), tr(55)] } }],
    ['qualified', { post, pre, deepnorm: { 1e-3: [tr(60), tr(70)], 3e-3: [stuck, stuck] } }],
    ['qualified', { post, pre, deepnorm: { 1e-3: [tr(60), tr(70)], 3e-3: [tr(60), blown] } }], // mixed is not trained
    ['refuted', { post, pre, deepnorm: { 1e-3: [stuck, stuck], 3e-3: [blown, blown] } }],
    // Post-LN trains at 1e-3: only 3e-3 is tested, where DeepNorm trains
    ['confirmed', { post: { ...post, 1e-3: [tr(200), tr(210)] }, pre, deepnorm: { 1e-3: [stuck, stuck], 3e-3: [tr(50), tr(55)] } }],
    // Pre-LN fails at 3e-3: only 1e-3 is tested
    ['confirmed', { post, pre: { ...pre, 3e-3: [blown, blown] }, deepnorm: { 1e-3: [tr(60), tr(70)], 3e-3: [stuck, stuck] } }],
  ] as [string, Record<string, Record<number, PdRun[]>>][])('%s (%#)', (verdict, at) => {
    const j = V.deepNormNoWarmup(doc(at));
    expect(j.verdict).toBe(verdict);
    expect(j.facts.tooSmall).toBeUndefined();
  });
  it('gives the escape steps per seed at the first point tested', () => {
    const f = V.deepNormNoWarmup(doc({ post, pre, deepnorm: { 1e-3: [tr(60), stuck], 3e-3: [tr(50), tr(55)] } })).facts;
    expect(f).toMatchObject({ W: 300, lrsTested: [1e-3, 3e-3], lrsDnTrains: [3e-3], lrsDnFails: [1e-3], lrAt: 1e-3, layersAt: 8 });
    expect(f.dnEsc0).toEqual([60, null]);
    expect(f.preEsc0).toEqual([40, 45]);
    expect(f.postEsc0).toEqual([null, null]);
    expect(f.dnEscW).toEqual([150, 160]);
    expect(f.dn0).toEqual(['mixed', 'trained']);
  });
  it.each([
    ['no-failure', { post: { 1e-3: [tr(200), tr(210)] }, pre: { 1e-3: [tr(40), tr(45)] }, deepnorm: { 1e-3: [stuck, stuck] } }],
    ['too-short', { post, pre: { 1e-3: [stuck, stuck], 3e-3: [blown, blown] }, deepnorm: { 1e-3: [stuck, stuck], 3e-3: [stuck, stuck] } }],
    ['no-placement', { post, pre }],
  ] as [string, Record<string, Record<number, PdRun[]>>][])('untested (%s)', (why, at) => {
    const j = V.deepNormNoWarmup(doc(at));
    expect(j.verdict).toBe('untested');
    expect(j.facts.tooSmall).toBe(why);
  });
});

// A sharpness document: one run per (placement, optimizer, warm-up, seed), measured at `at`, its
// λ/threshold ratios given per step (threshold 1, so sharpness = ratio); `stop` stops a run there.
const shRun = (placement: string, optimizer: string, warmup: number, ratios: number[], seed = 0, at = [1, 5, 10, 15, 20, 25], stop = 0) => ({
  placement,
  optimizer,
  warmup,
  seed,
  status: stop ? 'diverged' : 'ok',
  stop_step: stop,
  steps: at.slice(0, ratios.length),
  sharpness: ratios,
  threshold: ratios.map(() => 1),
  loss: Array(stop ? stop - 1 : 50).fill(5),
});
const sh = (runs: ReturnType<typeof shRun>[], steps = 50) => ({ config: { steps }, runs });
const UP = [20, 5, 2, 1.5, 1.2, 1.1]; // above the threshold throughout the window
const DOWN = [0.3, 0.2, 0.5, 0.6, 0.8, 0.9]; // under it throughout
const BLIP = [0.3, 0.2, 0.5, 1.3, 0.8, 0.9]; // crosses once, late in the window
// both placements, both seeds: Adam without warm-up crosses, with a 25-step warm-up stays under; GI-Adam as given
const shAll = (adamW: { post: number[]; pre: number[] }, gi0: { post: number[]; pre: number[] }, extra: ReturnType<typeof shRun>[] = []) =>
  sh([
    ...['post', 'pre'].flatMap((p) =>
      [0, 1].flatMap((seed) => [
        shRun(p, 'adam', 0, UP, seed),
        shRun(p, 'adam', 25, adamW[p as 'post' | 'pre'], seed),
        shRun(p, 'gi-adam', 0, gi0[p as 'post' | 'pre'], seed),
        shRun(p, 'gi-adam', 25, DOWN, seed),
      ]),
    ),
    ...extra,
  ]);
describe('sharpness: warm-up keeps Adam under the threshold', () => {
  it.each([
    ['confirmed', shAll({ post: DOWN, pre: DOWN }, { post: DOWN, pre: DOWN }), undefined],
    ['qualified', shAll({ post: BLIP, pre: DOWN }, { post: DOWN, pre: DOWN }), undefined],
    ['refuted', shAll({ post: BLIP, pre: UP }, { post: DOWN, pre: DOWN }), undefined],
    // the window is the warm-up's 25 steps: a crossing after it (at 30) does not count
    ['confirmed', sh([shRun('post', 'adam', 0, UP), shRun('post', 'adam', 25, [...DOWN, 3], 0, [1, 5, 10, 15, 20, 25, 30])]), undefined],
    ['untested', sh([shRun('post', 'adam', 0, DOWN), shRun('post', 'adam', 25, DOWN)]), 'no-crossing'],
    ['untested', sh([shRun('post', 'adam', 0, UP), shRun('post', 'gi-adam', 25, DOWN)]), 'no-runs'], // no Adam with warm-up
    ['untested', sh([shRun('post', 'adam', 0, UP)]), 'no-runs'], // no positive warm-up at all
    ['untested', sh([shRun('post', 'adam', 0, [20, 5], 0, [1, 20]), shRun('post', 'adam', 25, [0.3, 0.2], 0, [1, 20])]), 'too-short'], // 2 steps measured
    ['untested', sh([shRun('post', 'adam', 0, UP), shRun('post', 'adam', 25, DOWN)], 20), 'too-short'], // the run ends before the warm-up
  ])('%s (%#)', (verdict, doc, why) => {
    const j = V.sharpnessWarmup(doc);
    expect(j.verdict).toBe(verdict);
    expect(j.facts.tooSmall).toBe(why);
  });
  it('a crossing needs every seed; a seed that stays under makes the placement mixed, not crossing', () => {
    const doc = sh([
      shRun('post', 'adam', 0, UP, 0),
      shRun('post', 'adam', 0, DOWN, 1),
      shRun('post', 'adam', 25, DOWN, 0),
      shRun('post', 'adam', 25, DOWN, 1),
    ]);
    expect(V.sharpnessWarmup(doc)).toMatchObject({ verdict: 'untested', facts: { tooSmall: 'no-crossing', crossing: [] } });
  });
  it('a run that diverges inside the window crosses; staying under needs every seed under and running through', () => {
    const doc = sh([shRun('post', 'adam', 0, [0.5, 0.6], 0, undefined, 7), shRun('post', 'adam', 25, DOWN, 0)]);
    expect(V.sharpnessWarmup(doc)).toMatchObject({ verdict: 'confirmed', facts: { crossing: ['post'], kept: ['post'] } });
    const cut = sh([shRun('post', 'adam', 0, UP, 0), shRun('post', 'adam', 25, [0.3, 0.2], 0, undefined, 7)]);
    expect(V.sharpnessWarmup(cut).verdict).toBe('refuted');
  });
  it('the facts: the window, the largest ratio per group over seeds, and GI-Adam’s step-1 reduction', () => {
    const doc = shAll({ post: DOWN, pre: DOWN }, { post: [4, 1.2, 0.5, 0.4, 0.3, 0.2], pre: DOWN });
    const f = V.sharpnessWarmup(doc).facts;
    expect(f).toMatchObject({ window: 25, measured: 6, steps: 50, ratioAdam0Post: 20, ratioAdamWPost: 0.9, ratioGi0Post: 4, ratioGi0Pre: 0.9 });
    expect(f.ratioStep1Post).toBeCloseTo(5); // 20 / 4
    expect(f.ratioStep1Pre).toBeCloseTo(20 / 0.3);
    expect(f).toMatchObject({ ratioAfterAdamWPost: null, unconverged: 0, estimates: 6 * 16 });
    const later = V.sharpnessWarmup(sh([shRun('post', 'adam', 0, UP), shRun('post', 'adam', 25, [...DOWN, 3, 2], 0, [1, 5, 10, 15, 20, 25, 30, 35])]));
    expect(later.facts.ratioAfterAdamWPost).toBe(3);
    // issue 30's P leaves out 1 − β1ᵗ: step 1's ratio × 0.1, step 5's × (1 − 0.9⁵)
    expect(f.ratioPlainAdam0Post).toBeCloseTo(
      Math.max(20 * 0.1, 5 * (1 - 0.9 ** 5), 2 * (1 - 0.9 ** 10), 1.5 * (1 - 0.9 ** 15), 1.2 * (1 - 0.9 ** 20), 1.1 * (1 - 0.9 ** 25)),
      12,
    );
    expect(f.ratioPlainGi0Post).toBeCloseTo(Math.max(0.4, 1.2 * (1 - 0.9 ** 5)), 12);
  });
});
describe('sharpness: GI-Adam removes the need for warm-up', () => {
  it.each([
    ['confirmed', shAll({ post: DOWN, pre: DOWN }, { post: DOWN, pre: DOWN }), undefined],
    ['qualified', shAll({ post: DOWN, pre: DOWN }, { post: BLIP, pre: DOWN }), undefined],
    ['refuted', shAll({ post: DOWN, pre: DOWN }, { post: UP, pre: BLIP }), undefined],
    // judged whatever warm-up does for Adam
    ['confirmed', shAll({ post: UP, pre: UP }, { post: DOWN, pre: DOWN }), undefined],
    ['untested', sh([shRun('post', 'adam', 0, DOWN), shRun('post', 'gi-adam', 0, DOWN), shRun('post', 'adam', 25, DOWN)]), 'no-crossing'],
    ['untested', sh([shRun('post', 'adam', 0, UP), shRun('post', 'adam', 25, DOWN)]), 'no-runs'], // no GI-Adam
    ['untested', sh([shRun('post', 'adam', 0, UP), shRun('post', 'gi-adam', 0, DOWN)]), 'no-runs'], // no warm-up sets the window
    ['untested', sh([shRun('post', 'adam', 0, UP), shRun('post', 'gi-adam', 0, DOWN), shRun('post', 'adam', 25, DOWN)], 10), 'too-short'],
  ])('%s (%#)', (verdict, doc, why) => {
    const j = V.sharpnessGiAdam(doc);
    expect(j.verdict).toBe(verdict);
    expect(j.facts.tooSmall).toBe(why);
  });
});

/** A real-text document: per language `lang`, each group's escape step and final validation loss
 *  (key `placement:warmup`), plateau 3 for every language, 4 seeds, 200 steps. */
const rt = (perLang: Record<string, Record<string, [number | null, number | null]>>, steps = 200, seedsOk = 4) => ({
  config: { steps, seeds: [0, 1, 2, 3] },
  texts: Object.keys(perLang).map((lang) => ({ lang, unigram_entropy: 3 })),
  groups: Object.entries(perLang).flatMap(([lang, gs]) =>
    Object.entries(gs).map(([k, [escape_step, final_val]]) => {
      const [placement, warmup] = k.split(':');
      return { lang, placement, warmup: Number(warmup), seeds_ok: placement === 'post' && warmup === '0' ? seedsOk : 4, escape_step, final_val };
    }),
  ),
});
describe('real-text', () => {
  type Groups = Record<string, [number | null, number | null]>;
  const holds: Groups = { 'post:0': [null, 3.1], 'post:120': [170, 2.7], 'pre:0': [60, 2.4], 'pre:120': [150, 2.5] };
  const fails: Groups = { ...holds, 'post:0': [150, 2.6] }; // Post-LN escapes without warm-up
  const unrescued: Groups = { ...holds, 'post:120': [null, 2.9], 'pre:0': [60, 2.4] };
  it.each([
    ['confirmed', { en: holds, zh: holds }],
    ['refuted', { en: fails, zh: fails }],
    ['qualified', { en: holds, zh: fails }],
    ['refuted', { en: unrescued }], // warm-up fails to rescue, with room: 120 + 60 ≤ 200
    ['refuted', { en: { ...holds, 'post:120': [170, 3.2] } as Groups }], // escapes on training windows, not on held-out text
  ] as [string, Record<string, Groups>][])('%s', (verdict, doc) => expect(V.realText(rt(doc)).verdict).toBe(verdict));
  it.each([
    ['too-short', rt({ en: { ...holds, 'pre:0': [null, 2.9] } })], // the positive control does not escape
    ['too-short', rt({ en: { ...unrescued, 'pre:0': [90, 2.4] } })], // 120 + 90 > 200: no room after the warm-up
    ['no-placement', rt({ en: { 'post:0': [null, 3.1], 'post:120': [170, 2.7] } })],
    ['no-warmup', rt({ en: { 'post:0': [null, 3.1], 'pre:0': [60, 2.4] } })],
  ])('untested (%s)', (why, doc) => {
    const j = V.realText(doc);
    expect(j.verdict).toBe('untested');
    expect(j.facts.tooSmall).toBe(why);
  });
  it('a language too short beside one that holds qualifies; a diverged seed is no plateau', () => {
    const j = V.realText(rt({ en: holds, zh: { ...holds, 'pre:0': [null, 2.9] } }));
    expect(j.verdict).toBe('qualified');
    expect(j.facts.langsHold).toEqual(['en']);
    expect(j.facts.langsShort).toEqual(['zh']);
    expect(V.realText(rt({ en: holds }, 200, 3)).verdict).toBe('refuted');
  });
  it('names each language’s escape steps and validation losses', () => {
    const l = V.realText(rt({ en: holds })).facts.perLang[0];
    expect(l).toMatchObject({ lang: 'en', plateau: 3, outcome: 'holds', stalls: true, rescued: true });
    expect(l.escape).toEqual({ post0: null, postW: 170, pre0: 60, preW: 150 });
    expect(l.finalVal.postW).toBe(2.7);
  });
});

// An lr-sensitivity document: per placement, its capped loss per lr (the seeds' mean of
// min(final, ℓ₀)), its largest logit per lr and at init; the sensitivity is the engine's number
// (mean capped − best), written here as the engine writes it.
const LRS = [3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3];
const lrsEntry = (placement: string, capped: number[], logits: number[], init = 3, loss0 = 5.6, lrs = LRS) => {
  const best = Math.min(...capped);
  return {
    placement,
    loss0,
    best_loss: best,
    best_lr: lrs[capped.indexOf(best)],
    sensitivity: capped.reduce((a, b) => a + b, 0) / capped.length - best,
    cells: lrs.map((lr, i) => ({
      lr,
      capped_loss: capped[i],
      final_loss: capped[i],
      stopped: capped[i] === loss0 ? 2 : 0,
      max_logit: logits[i],
      logit_at_init: init,
    })),
  };
};
const lrsDoc = (...placements: ReturnType<typeof lrsEntry>[]) => ({ placements, runs: [] });
const PRE_BAD = [3.0, 2.0, 1.6, 1.5, 2.5, 5.6, 5.6]; // S = 3.114 − 1.5 = 1.61
const QK_GOOD = [3.0, 2.0, 1.6, 1.5, 1.5, 1.7, 2.2]; // S = 1.93 − 1.5 = 0.43
const GROWN = [3, 3.5, 5, 9, 30, 80, 200];
const FLAT = [3, 3, 3.2, 3.5, 4, 4.5, 5];
describe('lr-sensitivity: QK-norm lowers the LR sensitivity and keeps the logits bounded', () => {
  it.each([
    ['confirmed', lrsEntry('pre', PRE_BAD, GROWN), lrsEntry('qknorm', QK_GOOD, FLAT)],
    ['qualified', lrsEntry('pre', PRE_BAD, GROWN), lrsEntry('qknorm', QK_GOOD, GROWN)], // QK-norm's logits grow too
    ['qualified', lrsEntry('pre', PRE_BAD, FLAT), lrsEntry('qknorm', QK_GOOD, FLAT)], // Pre-LN's do not grow
    ['refuted', lrsEntry('pre', PRE_BAD, GROWN), lrsEntry('qknorm', PRE_BAD, FLAT)], // the same sensitivity
    ['refuted', lrsEntry('pre', QK_GOOD, GROWN), lrsEntry('qknorm', PRE_BAD, FLAT)], // a higher one
  ])('%s', (verdict, pre, qk) => {
    const j = V.lrSensitivity(lrsDoc(pre, qk));
    expect(j.verdict).toBe(verdict);
    expect(j.facts.tooSmall).toBeUndefined();
  });
  it('lowers means by at least a fifth: 0.8·S_pre is the edge', () => {
    const pre = lrsEntry('pre', PRE_BAD, GROWN);
    const edge = (s: number) => V.lrSensitivity(lrsDoc(pre, { ...lrsEntry('qknorm', QK_GOOD, FLAT), sensitivity: s })).verdict;
    expect(edge(0.8 * pre.sensitivity)).toBe('confirmed');
    expect(edge(0.8 * pre.sensitivity + 1e-9)).toBe('refuted');
  });
  it('facts: the numbers, the curves, the growths and where runs stopped', () => {
    const f = V.lrSensitivity(lrsDoc(lrsEntry('pre', PRE_BAD, GROWN), lrsEntry('qknorm', QK_GOOD, FLAT))).facts;
    expect(f.sPre).toBeCloseTo(1.6143, 3);
    expect(f.sQk).toBeCloseTo(0.4286, 3);
    expect(f.ratio).toBeCloseTo(0.4286 / 1.6143, 3);
    expect(f).toMatchObject({
      lrSpan: 1000,
      bestPre: 1.5,
      lrBestPre: 1e-2,
      loss0Pre: 5.6,
      lrsStoppedPre: [0.1, 0.3],
      lrsStoppedQk: [],
      logitPre: 200,
      logitQk: 5,
    });
    expect(f.ratioGrowthPre).toBeCloseTo(200 / 3, 9);
    expect(f.ratioGrowthQk).toBeCloseTo(5 / 3, 9);
    expect(f.curveQk).toEqual(QK_GOOD);
    expect(V.logitGrowth({ cells: [{ max_logit: 4, logit_at_init: 0 }] })).toBeNaN();
  });
  it.each([
    ['no-placement', lrsDoc(lrsEntry('pre', PRE_BAD, GROWN))],
    ['lr-range', lrsDoc(lrsEntry('pre', [2, 1.5, 5.6], GROWN, 3, 5.6, [1e-2, 3e-2, 0.1]), lrsEntry('qknorm', [2, 1.5, 1.6], FLAT, 3, 5.6, [1e-2, 3e-2, 0.1]))],
    ['too-short', lrsDoc(lrsEntry('pre', [5.5, 5.4, 5.3, 5.2, 5.3, 5.6, 5.6], GROWN), lrsEntry('qknorm', QK_GOOD, FLAT))],
    ['no-failure', lrsDoc(lrsEntry('pre', [1.6, 1.55, 1.5, 1.5, 1.5, 1.55, 1.6], GROWN), lrsEntry('qknorm', QK_GOOD, FLAT))],
  ] as [string, ReturnType<typeof lrsDoc>][])('untested (%s)', (why, d) => {
    const j = V.lrSensitivity(d);
    expect(j.verdict).toBe('untested');
    expect(j.facts.tooSmall).toBe(why);
  });
});

// angular-update (claim 10's angular view): each placement's ā, the mean over steps of the step's
// angle, seed-averaged, without warm-up; the steps below are the fixture's 4, so its β1 is set so
// that 2/(1 − β1) ≤ 4 where the rule must judge. Per row: post, pre, deepnorm angles per step.
const au = (post: number[], pre: number[], dn: number[], beta1 = 0.5) => {
  const d = auDoc({ post, pre, deepnorm: dn });
  return { ...d, config: { ...d.config, beta1 } };
};
describe('angular-update: DeepNorm’s early angular updates beside Pre-LN’s and Post-LN’s (claim 10)', () => {
  it.each([
    // ā: post 0.0425, pre 0.0275 (post/pre 1.55 > 1.5)
    ['confirmed', au([0.05, 0.04, 0.04, 0.04], [0.05, 0.02, 0.02, 0.02], [0.05, 0.02, 0.02, 0.02]), undefined],
    ['confirmed', au([0.05, 0.04, 0.04, 0.04], [0.05, 0.02, 0.02, 0.02], [0.01, 0.01, 0.01, 0.01]), undefined], // below Pre-LN's: in its direction
    ['qualified', au([0.05, 0.04, 0.04, 0.04], [0.05, 0.02, 0.02, 0.02], [0.05, 0.04, 0.04, 0.038]), undefined], // 0.042: above 1.5 × 0.0275, below 0.0425
    ['refuted', au([0.05, 0.04, 0.04, 0.04], [0.05, 0.02, 0.02, 0.02], [0.05, 0.04, 0.04, 0.04]), undefined], // equal to Post-LN's: "at or above"
    ['refuted', au([0.05, 0.02, 0.02, 0.02], [0.05, 0.02, 0.02, 0.02], [0.09, 0.05, 0.05, 0.05]), undefined], // above Post-LN's with no contrast: refuted all the same
    ['untested', au([0.05, 0.02, 0.02, 0.03], [0.05, 0.02, 0.02, 0.02], [0.03, 0.02, 0.02, 0.02]), 'no-contrast'], // post/pre 1.09
    ['untested', au([0.05, 0.02, 0.02, 0.02], [0.05, 0.04, 0.04, 0.04], [0.01, 0.01, 0.01, 0.01]), 'no-contrast'], // Post-LN below Pre-LN
    ['untested', au([0.05, 0.04, 0.04, 0.04], [0.05, 0.02, 0.02, 0.02], [0.05, 0.02, 0.02, 0.02], 0.9), 'too-short'], // 4 steps < 2/(1 − 0.9)
  ] as [string, ReturnType<typeof au>, string | undefined][])('%s (%#)', (verdict, doc, why) => {
    const j = angularUpdate(doc);
    expect(j.verdict).toBe(verdict);
    expect(j.facts.tooSmall).toBe(why);
  });
  it('the factor is 1.5, and its edge belongs to the side the rule names', () => {
    expect(AU_FACTOR).toBe(1.5);
    // ā(post) = 1.5 · ā(pre) exactly: no contrast (the rule asks more than F times)
    expect(angularUpdate(au([0.03, 0.03, 0.03, 0.03], [0.02, 0.02, 0.02, 0.02], [0.02, 0.02, 0.02, 0.02])).facts).toMatchObject({ tooSmall: 'no-contrast' });
    // ā(dn) = 1.5 · ā(pre) exactly: within the factor, confirmed
    expect(angularUpdate(au([0.04, 0.04, 0.04, 0.04], [0.02, 0.02, 0.02, 0.02], [0.03, 0.03, 0.03, 0.03])).verdict).toBe('confirmed');
  });
  it('untested without one of the three placements, or with one seed', () => {
    const d = au([0.05, 0.04, 0.04, 0.04], [0.05, 0.02, 0.02, 0.02], [0.05, 0.02, 0.02, 0.02]);
    expect(angularUpdate({ ...d, runs: d.runs.filter((r) => r.placement !== 'deepnorm') }).facts).toMatchObject({ tooSmall: 'no-placement' });
    expect(angularUpdate({ ...d, runs: d.runs.filter((r) => r.warmup !== 0 || r.placement !== 'post') }).facts).toMatchObject({ tooSmall: 'no-placement' });
    expect(angularUpdate({ ...d, runs: d.runs.filter((r) => r.seed === 0) }).facts).toMatchObject({ tooSmall: 'seeds', seeds: 1 });
  });
  it('a run that stopped counts as turning without bound; a DeepNorm run that diverged refutes', () => {
    const d = au([0.05, 0.04, 0.04, 0.04], [0.05, 0.02, 0.02, 0.02], [0.05, 0.02, 0.02, 0.02]);
    expect(earlyAngle({ ...d.runs[0], status: 'nan' })).toBe(Infinity);
    const runs = d.runs.map((r) => (r.placement === 'deepnorm' && r.warmup === 0 && r.seed === 1 ? { ...r, status: 'diverged' } : r));
    expect(angularUpdate({ ...d, runs }).verdict).toBe('refuted');
  });
  it('ā is the mean over steps of the mean over groups; the facts are in degrees, with warm-up beside', () => {
    expect(
      meanAngle({
        angle: [
          [0.1, 0.2],
          [0.3, 0.4, 0.5],
        ],
      }),
    ).toEqual([0.2, 0.30000000000000004]);
    const f = angularUpdate(au([0.05, 0.04, 0.04, 0.04], [0.05, 0.02, 0.02, 0.02], [0.05, 0.02, 0.02, 0.02])).facts;
    const deg = (x: number) => (x * 180) / Math.PI;
    expect(f.degPost).toBeCloseTo(deg(0.0425 * 1.005), 9);
    expect(f.degPre).toBeCloseTo(deg(0.0275 * 1.005), 9);
    expect(f.ratioPostPre).toBeCloseTo(0.0425 / 0.0275, 9);
    expect(f.ratioDnPre).toBeCloseTo(1, 9);
    expect(f).toMatchObject({ F: 1.5, W: 2, steps: 4, minSteps: 4, seeds: 2 });
    // warm-up 2: the first step at half the lr (the fixture halves its angle)
    expect(f.degPostW).toBeCloseTo(deg(((0.025 + 0.04 + 0.04 + 0.04) / 4) * 1.005), 9);
  });
});
