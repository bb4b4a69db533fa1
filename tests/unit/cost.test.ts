// cost.test.ts — lib/cost.ts: the FLOPs of a live run and the size of its products, from its
// config (the speed they are read against: speed.test.ts).
import { describe, expect, it } from 'vitest';
import { experimentWork, forwardFlops, gridFlops, gridWork, probeFlops, probeWork, stepFlops } from '../../web/src/lib/cost';
import { GRID_DEFAULTS, PROBE_DEFAULTS } from '../../web/src/generated/engine-schema';

const toy = { layers: 8, d: 128, d_ff: 512, vocab: 256, seq: 64, batch: 8 };

describe('cost', () => {
  it('a forward pass: q, k, v, the n×n attention products, the FFN and the output layer', () => {
    const N = 512;
    const perLayer = 2 * N * 3 * 128 * 128 + 4 * 8 * 64 * 64 * 128 + 4 * N * 128 * 512;
    expect(forwardFlops(toy)).toBe(8 * perLayer + 2 * N * 128 * 256);
    expect(stepFlops(toy)).toBe(3 * forwardFlops(toy));
  });
  it.each([
    ['the article grid: 16 runs × 500 steps', GRID_DEFAULTS, 16 * 500],
    ['one run of 20 steps', { ...GRID_DEFAULTS, placements: ['pre'], warmups: [0], lrs: [1e-3], seeds: [0], steps: 20 }, 20],
  ])('%s', (_, c, steps) => expect(gridFlops(c as never)).toBe(steps * stepFlops(toy)));
  it('the probe: per-layer job plus the depth sweep, per placement and seed', () => {
    const c = { ...PROBE_DEFAULTS, placements: ['post'], seeds: [0], batches: 2, depth_batches: 1, depths: [6] };
    expect(probeFlops(c as never)).toBeCloseTo(2 * 3 * forwardFlops(c) + 1.5 * forwardFlops(c), 6);
    // five seeds and two placements: ten times one
    expect(probeFlops({ ...c, seeds: [0, 1, 2, 3, 4], placements: ['post', 'pre'] } as never)).toBeCloseTo(10 * probeFlops(c as never), 3);
  });
});

describe('the size of the products', () => {
  it('tokens per step × d, for the grid and the probe', () => {
    const g = {
      layers: 6,
      d: 128,
      d_ff: 512,
      vocab: 256,
      seq: 32,
      batch: 2,
      steps: 200,
      placements: ['post', 'pre'],
      warmups: [0, 120],
      lrs: [1e-3],
      seeds: [0, 1, 2, 3],
    };
    expect(gridWork(g as never)).toEqual({ flops: gridFlops(g as never), size: 2 * 32 * 128 });
    const pr = { layers: 6, d: 64, d_ff: 128, vocab: 100, seq: 8, batch: 2, placements: ['post'], seeds: [0, 1], batches: 3, depth_batches: 2, depths: [2, 4] };
    expect(probeWork(pr as never)).toEqual({ flops: probeFlops(pr as never), size: 2 * 8 * 64 });
  });
});

describe("the experiments' cost: warmup-length's grids", () => {
  const model = { layers: 6, d: 128, d_ff: 512, vocab: 256, seq: 32, batch: 2 };
  const step = stepFlops(model);
  it.each([
    // [experiment, config over the model, FLOPs wanted]
    [
      'warmup-length',
      { steps: 400, optimizers: ['adam', 'radam', 'sgd'], placements: ['post', 'pre'], warmups: [0, 25, 50, 100, 300], lr_factors: [1, 3], seeds: [0, 1] },
      120 * 400 * step,
    ],
    [
      'warmup-length',
      { steps: 200, optimizers: ['adam', 'radam'], placements: ['post', 'pre'], warmups: [0, 50, 100], lr_factors: [1], seeds: [0] },
      12 * 200 * step,
    ],
  ])('%s %j', (name, c, want) => {
    const w = experimentWork(name, { ...model, ...c });
    expect(w?.flops).toBeCloseTo(want, 0);
    expect(w?.size).toBe(2 * 32 * 128);
  });
  it.each(['plateau-share', 'adam-first-step', 'output-sensitivity', 'step-size', 'tied-output', 'depth-factors', 'no-such'])('%s: not modelled', (name) =>
    expect(experimentWork(name, { ...model, steps: 10 })).toBeNull(),
  );
  it('phase-diagram: every run of every depth at its full steps (an upper bound under early exit)', () => {
    const c = { ...model, steps: 300, placements: ['post', 'pre'], warmups: [0, 100], lrs: [1e-3], seeds: [0], depths: [2, 8] };
    const w = experimentWork('phase-diagram', c);
    expect(w?.flops).toBeCloseTo(4 * 300 * (stepFlops({ ...model, layers: 2 }) + stepFlops({ ...model, layers: 8 })), 0);
    expect(w?.size).toBe(2 * 32 * 128);
    expect(experimentWork('phase-diagram', { ...c, depths: 'x' })?.flops).toBe(0);
  });
  it('a config without steps or lists costs nothing it can claim', () => {
    expect(experimentWork('warmup-length', { ...model })).toBeNull();
    expect(experimentWork('warmup-length', { ...model, steps: 10, optimizers: 'adam' })?.flops).toBe(0);
  });
});

describe("an experiment slot's cost (result-slots.svelte.ts costOf)", () => {
  it("reads the engine's defaults under the slot's config: the full warm-up-length run is 120 toy runs of 400 steps", async () => {
    const { costOf, EXPERIMENT_SLOTS } = await import('../../web/src/lib/result-slots.svelte');
    const model = { layers: 6, d: 128, d_ff: 512, vocab: 256, seq: 32, batch: 2 };
    expect(costOf('warmupLength', {})?.flops).toBeCloseTo(120 * 400 * stepFlops(model), 0);
    const small = costOf('warmupLength', EXPERIMENT_SLOTS.warmupLength.small);
    // the quick setting (docs/reproduction.md): 2 placements × 3 optimizers × 2 warm-ups, 400 steps of the reference's model
    expect(small?.flops).toBeCloseTo(12 * 400 * stepFlops(model), 0);
    expect(costOf('outputSensitivity', {})).toBeNull();
    expect(costOf('grid', null)).toBeNull();
  });
});
