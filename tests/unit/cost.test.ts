// cost.test.ts — lib/cost.ts: the FLOPs of a live run and the size of its products, from its
// config (the speed they are read against: speed.test.ts).
import { describe, expect, it } from 'vitest';
import { forwardFlops, gridFlops, gridWork, probeFlops, probeWork, stepFlops } from '../../web/src/lib/cost';
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
    const g = { layers: 6, d: 128, d_ff: 512, vocab: 256, seq: 32, batch: 2, steps: 200, placements: ['post', 'pre'], warmups: [0, 120], lrs: [1e-3], seeds: [0, 1, 2, 3] };
    expect(gridWork(g as never)).toEqual({ flops: gridFlops(g as never), size: 2 * 32 * 128 });
    const pr = { layers: 6, d: 64, d_ff: 128, vocab: 100, seq: 8, batch: 2, placements: ['post'], seeds: [0, 1], batches: 3, depth_batches: 2, depths: [2, 4] };
    expect(probeWork(pr as never)).toEqual({ flops: probeFlops(pr as never), size: 2 * 8 * 64 });
  });
});
