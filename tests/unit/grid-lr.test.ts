// Switching Figure 4's optimizer carries the typed peak lrs over as multiples of each optimizer's
// suggested lr (grid-settings.ts lrsForOptimizer), so SGD is not offered Adam's 1e-3.
import { describe, expect, it } from 'vitest';
import { lrsForOptimizer, suggestedLr } from '../../web/src/lib/grid-settings';

describe('lrsForOptimizer', () => {
  it('reads the engine’s suggestions', () => {
    expect(suggestedLr('adam')).toBe(0.001);
    expect(suggestedLr('sgd')).toBe(0.05);
  });
  it.each([
    ['0.001, 0.003', 'adam', 'sgd', '0.05, 0.15'],
    ['0.05, 0.15', 'sgd', 'adam', '0.001, 0.003'],
    ['1e-3', 'adam', 'radam', '1e-3'],
    ['0.002', 'adam', 'sgd', '0.1'],
    ['abc', 'adam', 'sgd', 'abc'],
    ['', 'adam', 'sgd', ''],
    ['0.001', 'adam', 'nope', '0.001'],
  ])('%s from %s to %s → %s', (lrs, from, to, want) => expect(lrsForOptimizer(lrs, from, to)).toBe(want));
});
