import { describe, expect, it } from 'vitest';
import { fmt, fmtDuration, fmtInt, fmtList, fmtLr, fmtWhen } from '../../web/src/lib/format';

describe('fmt', () => {
  it.each([
    [1.454, 2, '1.45'],
    [1.456, 2, '1.46'],
    [2.5, 1, '2.5'],
    [-0.001, 2, '0.00'],
    [0, 2, '0.00'],
    [NaN, 2, '—'],
    [Infinity, 2, '—'],
    [null, 2, '—'],
    [undefined, 2, '—'],
  ] as const)('fmt(%s, %s) = %s', (x, d, s) => expect(fmt(x as number, d)).toBe(s));
  it('fmtInt rounds', () => expect(fmtInt(7.6)).toBe('8'));
});

describe('fmtList', () => {
  it.each([
    [[1.45, 1.451], 'en', '1.45, 1.45'],
    [[1.45, 1.451], 'zh', '1.45、1.45'],
    [[1, NaN], 'en', '1.00, —'],
    [[], 'en', '—'],
  ] as const)('%j %s', (xs, lang, s) => expect(fmtList(xs as readonly number[], lang)).toBe(s));
});

describe('fmtLr', () => {
  it.each([
    [0.001, '10⁻³'],
    [0.003, '3×10⁻³'],
    [0.0005, '5×10⁻⁴'],
    [1e-5, '10⁻⁵'],
  ])('%s → %s', (x, s) => expect(fmtLr(x)).toBe(s));
});

describe('fmtDuration', () => {
  it.each([
    [0, '0 ms'],
    [0.4, '0 ms'],
    [430, '430 ms'],
    [999, '999 ms'],
    [999.6, '1.0 s'],
    [1000, '1.0 s'],
    [4_240, '4.2 s'],
    [12_400, '12 s'],
    [185_000, '3 min 05 s'],
    [3_599_000, '59 min 59 s'],
    [3_600_000, '1 h 00 min'],
    [(2820 * 60 + 17) * 1000, '47 h 00 min'],
    [7_650_000, '2 h 08 min'],
    [-5, '0 ms'],
    [null, '—'],
  ])('%s → %s', (ms, s) => expect(fmtDuration(ms)).toBe(s));
});

describe('fmtWhen', () => {
  // what toLocaleString gave a run list entry before, from one formatter per language
  it.each(['en', 'zh-CN', ''])('%s: as toLocaleString writes it', (lang) => {
    const iso = '2026-12-05T06:07:08.000Z';
    expect(fmtWhen(iso, lang)).toBe(new Date(iso).toLocaleString(lang || undefined, { dateStyle: 'short', timeStyle: 'short' }));
    expect(fmtWhen(iso, lang)).toBe(fmtWhen(iso, lang));
  });
});
