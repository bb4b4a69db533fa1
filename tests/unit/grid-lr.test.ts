// Switching Figure 4's optimizer carries the peak lrs over as multiples of each optimizer's
// suggested lr (lib/settings.ts lrsForOptimizer, the grid table's `follow`), so SGD is not offered
// Adam's 1e-3.
import { describe, expect, it } from 'vitest';
import { GRID, lrsForOptimizer, suggestedLr } from '../../web/src/lib/settings';

describe('lrsForOptimizer', () => {
  it('reads the engine’s suggestions', () => {
    expect(suggestedLr('adam')).toBe(0.001);
    expect(suggestedLr('sgd')).toBe(0.05);
  });
  it.each([
    [[0.001, 0.003], 'adam', 'sgd', [0.05, 0.15]],
    [[0.05, 0.15], 'sgd', 'adam', [0.001, 0.003]],
    [[1e-3], 'adam', 'radam', [1e-3]],
    [[0.002], 'adam', 'sgd', [0.1]],
    [[], 'adam', 'sgd', []],
    [[0.001], 'adam', 'nope', [0.001]],
  ])('%j from %s to %s → %j', (lrs, from, to, want) => expect(lrsForOptimizer(lrs, from, to)).toEqual(want));
  it('follows a choice of optimizer in the grid’s form, and nothing else', () => {
    expect(GRID.follow!('optimizer', 'adam', 'sgd', { lrs: [0.001] })).toEqual({ lrs: [0.05] });
    expect(GRID.follow!('warmup_shape', 'linear', 'cosine', { lrs: [0.001] })).toEqual({});
  });
});
