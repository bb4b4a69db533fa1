// fig1-helpers.test.ts — Figure 1's pure helpers: the plain-text version of the inline
// mini-language it uses (lib/plain-inline.ts), label widths (text.ts), and the pixel geometry
// (geom.ts: scale, rows, rounded paths, arcs).
import { describe, expect, it } from 'vitest';
import { labelEm } from '../../web/src/figures/fig1/text';
import { plainInline } from '../../web/src/lib/plain-inline';
import { COMPACT_BELOW, geometry, gradArc, roundedPath, toPx, trimEnd } from '../../web/src/figures/fig1/geom';

describe('plainInline', () => {
  it.each([
    ['plain text', 'plain text'],
    ['$\\role{norm}{\\mathrm{LN}}(x)$', 'LN(x)'],
    ['$\\times\\sqrt d/\\lVert x_L\\rVert$', '×√ d/‖ x_L‖'],
    ['$\\sqrt{2/3}\\approx 0.82$', '√2/3≈ 0.82'],
    ['$\\delta\\cdot\\mathrm{ReLU}(W^1x)^\\top$', 'δ·ReLU(W^1x)^ᵀ'],
    ['**bold** and *it* and `code`', 'bold and it and code'],
    ['[link](https://example.org) text', 'link text'],
    ['$\\tilde{\\mathcal L}$', 'ℒ'],
    ['', ''],
  ])('%s → %s', (input, out) => {
    expect(plainInline(input)).toBe(out);
  });

  it('never leaves $, braces or backslashes', () => {
    const s = plainInline('$\\frac{\\partial \\role{loss}{\\mathcal L}}{\\partial \\role{param}{W^{2,L}}}\\unknown{q}$');
    expect(s).not.toMatch(/[$\\{}]/);
  });
});

describe('labelEm', () => {
  it.each([
    ['', 0],
    ['LN', 1.2],
    ['最终', 2],
    ['W²', 1.2],
  ])('%s ≈ %s em', (s, em) => {
    expect(labelEm(s)).toBeCloseTo(em);
  });
});

describe('geometry', () => {
  it.each([
    [1000, false],
    [COMPACT_BELOW, false],
    [COMPACT_BELOW - 1, true],
    [390, true],
    [0, false], // not measured yet: a desktop default
  ])('width %i → compact %s', (w, compact) => {
    expect(geometry(w, -0.25, 12.5).compact).toBe(compact);
  });

  it.each([320, 390, 700, 1200])('width %i: the drawing fits and rows do not overlap', (w) => {
    const g = geometry(w, -0.25, 12.5);
    expect(g.ox + -0.25 * g.U).toBeGreaterThanOrEqual(0);
    expect(g.ox + 12.5 * g.U).toBeLessThanOrEqual(g.W + 1e-9);
    expect(g.rows.post.bracketBottom).toBeLessThan(g.rows.pre.top);
    expect(g.rows.pre.bracketBottom).toBeLessThan(g.H);
    expect(g.rows.post.branch).toBeLessThan(g.rows.post.main);
    expect(toPx(g, 'pre', [0, 1])[1]).toBe(g.rows.pre.main);
  });

  it('columns stop growing on wide screens', () => {
    expect(geometry(3000, 0, 12).U).toBe(geometry(2000, 0, 12).U);
  });
});

describe('paths', () => {
  it('roundedPath: straight segments stay straight, corners get a curve', () => {
    expect(
      roundedPath([
        [0, 0],
        [10, 0],
      ]),
    ).toBe('M0,0L10,0');
    expect(
      roundedPath(
        [
          [0, 0],
          [10, 0],
          [10, 10],
        ],
        4,
      ),
    ).toBe('M0,0L6,0Q10,0 10,4L10,10');
    expect(roundedPath([])).toBe('');
  });

  it('trimEnd shortens the last segment', () => {
    expect(
      trimEnd(
        [
          [0, 0],
          [0, 10],
        ],
        4,
      ),
    ).toEqual([
      [0, 0],
      [0, 6],
    ]);
    expect(
      trimEnd(
        [
          [0, 0],
          [0, 10],
        ],
        20,
      ),
    ).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it('gradArc: an arc under the main lane; a bent line between lanes', () => {
    const a = { x: 100, y: 50, hw: 20, hh: 15, lane: 'main' as const };
    const b = { x: 40, y: 50, hw: 20, hh: 15, lane: 'main' as const };
    const d = gradArc(a, b);
    const nums = d.match(/-?[\d.]+/g)!.map(Number);
    expect(nums[1]).toBeGreaterThan(65); // starts below the box
    expect(nums[3]).toBeGreaterThan(nums[1]); // control point dips lower
    const up = gradArc(a, { x: 60, y: 0, hw: 20, hh: 15, lane: 'branch' });
    expect(up).toMatch(/^M[\d.]+,[\d.]+Q/);
  });
});
