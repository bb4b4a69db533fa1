// doc-compare.test.ts — lib/doc-compare.ts: a live result against the precomputed one.
import { describe, expect, it } from 'vitest';
import { comparePrecomputed, numbersOf } from '../../web/src/lib/doc-compare';

const pre = { engine: { build: 'wasm-mt', threads: 2 }, generated: '2026-12-01', wall_seconds: 17.9, config: { a: 1, b: [2, 3] }, x: [1, 2.5], y: { z: 3 } };
const live = (over: object = {}) => ({ engine: { build: 'wasm-mt', threads: 4 }, config: { b: [2, 3], a: 1 }, x: [1, 2.5], y: { z: 3 }, ...over });

describe('comparePrecomputed', () => {
  it.each([
    ['identical: same config (any key order), same numbers, other provenance', live(), { kind: 'identical' }],
    ['differs: one number off', live({ x: [1, 2.5000001] }), { kind: 'differs', count: 1, maxRel: expect.closeTo(4e-8, 12) }],
    ['other settings', live({ config: { a: 2, b: [2, 3] } }), null],
    ['another shape (a summary)', live({ x: [1] }), null],
  ])('%s', (_, l, want) => expect(comparePrecomputed(l, pre)).toEqual(want));
  it('a config key the engine gained later reads as its default (documents.ts ADDED_CONFIG_KEYS)', () => {
    const grid = { ...pre, config: { a: 1, b: [2, 3] } };
    expect(comparePrecomputed(live({ config: { a: 1, b: [2, 3], warmup_shape: 'linear' } }), grid)).toEqual({ kind: 'identical' });
    expect(comparePrecomputed(live({ config: { a: 1, b: [2, 3], warmup_shape: 'cosine' } }), grid)).toBeNull();
  });
  it('nothing to compare without both documents', () => {
    expect(comparePrecomputed(null, pre)).toBeNull();
    expect(comparePrecomputed(live(), null)).toBeNull();
  });
  it('NaN equals NaN (a diverged run reproduces as NaN), −0 does not equal 0', () => {
    const nanPre = { ...pre, x: [NaN, 2.5] },
      zeroPre = { ...pre, x: [0, 2.5] };
    expect(comparePrecomputed(live({ x: [NaN, 2.5] }), nanPre)).toEqual({ kind: 'identical' });
    expect(comparePrecomputed(live({ x: [-0, 2.5] }), zeroPre)?.kind).toBe('differs');
  });
});

describe('numbersOf', () => {
  it('depth first, keys sorted, skipped keys left out', () => {
    expect(numbersOf({ b: 2, a: [1, { c: 3 }], engine: { threads: 9 } })).toEqual([1, 3, 2]);
    expect(numbersOf({ b: 2, a: 1 }, ['a'])).toEqual([2]);
  });
});
