// verdicts.test.ts — every branch of web/src/lib/verdicts.js on small hand-made documents, so a verdict
// in docs/reproduction.md changes when, and only when, the numbers it is computed from cross a rule.
import { describe, expect, it } from 'vitest';
import * as V from '../../web/src/lib/verdicts.js';

const afs = (rms1: number[], g1: number[], rmsT: number[]) => ({
  placements: {
    post: { update_rms: [rms1[0], rmsT[0]], grad_norm: [g1[0], 1] },
    pre: { update_rms: [rms1[1], rmsT[1]], grad_norm: [g1[1], 1] },
  },
});

describe('adam-first-step', () => {
  it.each([
    ['confirmed', afs([0.99, 1.0], [2.6, 1.7], [0.3, 0.31])],
    ['qualified', afs([0.99, 1.0], [2.6, 1.7], [0.05, 0.27])],
    ['refuted', afs([0.7, 1.0], [2.6, 1.7], [0.3, 0.3])],
    ['untested', afs([0.99, 1.0], [1.0, 1.1], [0.3, 0.3])],
  ])('%s', (verdict, doc) => expect(V.adamFirstStep(doc).verdict).toBe(verdict));
});

const cell = (layers: number, perLayer: number, eta: number) => ({
  layers, eta_star_of_mean: eta, layer_dlogits2: Array.from({ length: layers }, () => ({ mean: perLayer })),
});
describe('step-size', () => {
  const post = [cell(2, 0.03, 0.03), cell(16, 0.13, 0.005)];
  it.each([
    ['confirmed', [cell(2, 0.02, 0.01), cell(16, 0.03, 0.02)]],
    ['qualified', [cell(2, 0.02, 0.03), cell(16, 0.03, 0.002)]],
    ['refuted', [cell(2, 0.02, 0.03), cell(16, 0.1, 0.03)]],
  ])('%s', (verdict, pre) => expect(V.stepSize({ placements: { post, pre } }).verdict).toBe(verdict));
});

const os = (slopes: Record<string, number>) => ({ placements: Object.fromEntries(Object.entries(slopes).map(([p, slope]) => [p, { slope }])) });
describe('output-sensitivity', () => {
  it.each([
    ['confirmed', os({ post: 0.9, pre: 0.3, admin: 0.3 }), null],
    ['confirmed', os({ post: 0.9, pre: 0.3 }), os({ post: 1, pre: 0.5 })],
    ['qualified', os({ post: 0.9, pre: 0.3 }), os({ post: 1, pre: 1.1 })],
    ['refuted', os({ post: 0.6, pre: 0.3 }), null],
    ['refuted', os({ post: 0.9, pre: 0.3, admin: 0.8 }), null],
  ])('%s', (verdict, random, sign) => expect(V.outputSensitivity(random, sign).verdict).toBe(verdict));
});

const wl = (esc: Record<string, number | null>) => ({
  groups: Object.entries(esc).map(([k, e]) => {
    const [placement, optimizer, warmup] = k.split(':');
    return { placement, optimizer, warmup: Number(warmup), lr: optimizer === 'sgd' ? 0.05 : 1e-3, escape_step: e };
  }).concat([{ placement: 'post', optimizer: 'adam', warmup: 0, lr: 3e-3, escape_step: 7 }]),
});
describe('warmup-length', () => {
  const all = { 'post:adam:0': null, 'post:adam:50': 120, 'post:radam:0': 90, 'pre:adam:0': 60 };
  it.each([
    ['confirmed', all],
    ['refuted', { ...all, 'post:radam:0': null }],
    ['refuted', { ...all, 'post:adam:50': null }],
    ['untested', { ...all, 'post:adam:0': 200 }],
  ])('%s', (verdict, esc) => expect(V.warmupLength(wl(esc)).verdict).toBe(verdict));
  it('names the shortest warm-up that escapes, at the smallest lr', () => {
    const f = V.warmupLength(wl({ ...all, 'post:adam:25': null })).facts;
    expect(f.firstWarmupThatEscapes).toBe(50);
    expect(f.lr).toBe(1e-3);
  });
});

const ps = (loss: number, status: string, share0: number, shareEnd: number) => ({
  plateau_entropy: 5.38,
  runs: [
    { placement: 'post', warmup: 0, status, loss: Array(60).fill(loss), share: [[0.9, share0], [0.5, shareEnd]] },
    { placement: 'pre', warmup: 0, status: 'ok', loss: Array(60).fill(2), share: [[0.9, 0.8], [0.7, 0.6]] },
  ],
});
describe('plateau-share', () => {
  it.each([
    ['confirmed', ps(5.4, 'ok', 0.8, 0.1)],
    ['refuted', ps(5.4, 'ok', 0.8, 0.7)],
    ['untested', ps(3.0, 'ok', 0.8, 0.1)],
    ['untested', ps(5.4, 'diverged', 0.8, 0.1)],
  ])('%s', (verdict, doc) => expect(V.plateauShare(doc).verdict).toBe(verdict));
});

const to = (s: Record<string, number>) => ({
  uniform_p: 0.001,
  variants: Object.entries(s).map(([k, slope]) => {
    const [output, input_scale] = k.split(':');
    return { output, input_scale, placements: { pre: { slope_per_batch: slope, depths: [{ layers: 6, p_current: { mean: 0.8 } }] } } };
  }),
});
describe('tied-output', () => {
  const base = { 'tied:sqrt_d': -1.7, 'tied:none': -0.55, 'untied:sqrt_d': -0.55, 'untied:none': -0.57 };
  it.each([
    ['confirmed', base],
    ['refuted', { ...base, 'tied:sqrt_d': -0.6 }],
    ['refuted', { ...base, 'untied:none': -1.6 }],
  ])('%s', (verdict, s) => expect(V.tiedOutput(to(s)).verdict).toBe(verdict));
});

const sgd = (esc: Record<string, number | null>) => ({
  groups: Object.entries(esc).map(([k, e]) => {
    const [placement, warmup] = k.split(':');
    return { placement, optimizer: 'sgd', warmup: Number(warmup), lr: 0.05, escape_step: e };
  }),
});
describe('sgd control', () => {
  const base = { 'post:0': null, 'post:100': 380, 'pre:0': 60 };
  it.each([
    ['refuted', base],
    ['confirmed', { ...base, 'pre:0': null }],
    ['qualified', { ...base, 'post:100': null }],
    ['untested', { ...base, 'post:0': 90 }],
  ])('%s', (verdict, esc) => expect(V.sgdControl(sgd(esc)).verdict).toBe(verdict));
  it('untested without SGD runs', () => expect(V.sgdControl({ groups: [] }).verdict).toBe('untested'));
});

// A depth-factors document of L = 24 layers whose Post-LN profile has first/last ratio r and whose
// per-layer geometric means are the given norm and residual factors.
const df = (r: number, norm: number, residual: number) => ({
  layers: 24,
  placements: {
    post: {
      W2_per_batch: { mean: [r, 1] }, first_over_last: r, appendix_f_first_over_last: (2 / 3) ** 11.5,
      geomean_per_layer: { norm_factor: norm, residual_factor: residual, factor: norm * residual },
      factors: [1, 2].map(() => ({ ffn: { norm_factor: { mean: 0.82 }, residual_factor: { mean: 1.2 } } })),
    },
  },
});
describe('depth-factors', () => {
  it.each([
    ['confirmed', df(1.05, 0.7, 1.4)],   // flat; the norms shrink, the residual Jacobian gives it back
    ['qualified', df(1.05, 0.99, 1.0)],  // flat, but the norms hardly shrink anything
    ['qualified', df(1.05, 0.7, 1.0)],   // flat, yet the residual factor does not restore the norms' loss
    ['refuted', df(0.08, 0.7, 1.1)],     // |ln r| = 2.5 ≥ ½·|ln r_F| = 2.33: as close to the decay as to flat
    ['refuted', df(1 / 0.08, 0.7, 1.4)], // a rise as steep counts the same
  ])('%s', (verdict, doc) => expect(V.depthFactors(doc).verdict).toBe(verdict));
  it('facts carry the measured and predicted ratios', () => {
    const { facts } = V.depthFactors(df(1.05, 0.7, 1.4));
    expect(facts.L).toBe(24);
    expect(facts.rF).toBeCloseTo((2 / 3) ** 11.5, 12);
    expect(facts.ffnNorm).toBeCloseTo(0.82, 12);
  });
});
