// heatmap.test.ts — components/common/heatmap-shapes.ts: a heat map's cells as one path per opacity
// level. Every finite cell is drawn exactly once, in the path of its value's level; a cell without
// a value is not drawn; the ramp's ends and the rounding.
import { describe, expect, it } from 'vitest';
import { HEAT_LEVELS, heatOpacity, heatPaths, heatRamp } from '../../web/src/components/common/heatmap-shapes';

const unit = (x: number, y: number) => ({ x: x * 10, y: y * 10, w: 10, h: 10 });
/** the rectangles of a path, back from its d */
const rects = (d: string) => [...d.matchAll(/M([-\d.]+) ([-\d.]+)h([-\d.]+)v([-\d.]+)h([-\d.]+)z/g)].map((m) => m.slice(1).map(Number));

describe('heatPaths', () => {
  it.each([
    // [values, opacities of the paths, ascending]
    [
      [0, 1],
      [0.06, 1],
    ],
    [
      [-3, 7],
      [0.06, 1],
    ], // clamped to [0, 1]
    [[0.5, 0.5, 0.5], [0.53]],
    [[NaN, Infinity, 0.25], [0.295]], // no value: not drawn
    [[], []],
  ])('values %j: paths at opacities %j', (vs, want) => {
    const p = heatPaths(
      vs.map((v, i) => ({ x: i, y: 0, v })),
      unit,
    );
    expect(p.map((q) => q.opacity)).toEqual(want);
  });

  it('every finite cell once, at its place, in the path of its level', () => {
    const data = Array.from({ length: 40 * 8 }, (_, i) => ({ x: i % 40, y: Math.floor(i / 40), v: ((i * 37) % 101) / 100 }));
    data[17].v = NaN;
    const paths = heatPaths(data, unit);
    const drawn = paths.flatMap((p) => rects(p.d).map((r) => ({ r, opacity: p.opacity })));
    expect(drawn).toHaveLength(data.length - 1);
    for (const c of data) {
      const at = drawn.filter((q) => q.r[0] === c.x * 10 && q.r[1] === c.y * 10);
      if (!Number.isFinite(c.v)) {
        expect(at).toHaveLength(0);
        continue;
      }
      expect(at).toHaveLength(1);
      expect(at[0].r.slice(2)).toEqual([10, 10, -10]);
      // within half a level of the exact ramp
      expect(Math.abs(at[0].opacity - heatOpacity(c.v))).toBeLessThanOrEqual(0.94 / HEAT_LEVELS / 2 + 1e-4);
    }
    expect(paths.length).toBeLessThanOrEqual(HEAT_LEVELS + 1);
    expect(new Set(paths.map((p) => p.opacity)).size).toBe(paths.length);
  });

  it('coordinates to a hundredth of a pixel', () => {
    const [p] = heatPaths([{ x: 0, y: 0, v: 1 }], () => ({ x: 1 / 3, y: 2 / 3, w: 12.3456, h: 0.0049 }));
    expect(p.d).toBe('M0.33 0.67h12.35v0h-12.35z');
  });
});

describe('heatRamp (the legend of the heat maps)', () => {
  it.each<[number, { x: number; opacity: number }[]]>([
    [1, [{ x: 0, opacity: 0.53 }]],
    [
      2,
      [
        { x: 0, opacity: 0.295 },
        { x: 1, opacity: 0.765 },
      ],
    ],
    [
      4,
      [
        { x: 0, opacity: 0.1775 },
        { x: 1, opacity: 0.4125 },
        { x: 2, opacity: 0.6475 },
        { x: 3, opacity: 0.8825 },
      ],
    ],
  ])('%i bands: the opacity of each band’s middle value, as the cells have it', (n, want) => expect(heatRamp(n)).toEqual(want));
  it('rises from nearly transparent to nearly opaque, as the cells do', () => {
    const r = heatRamp();
    expect(r).toHaveLength(16);
    expect(r.every((b, i) => i === 0 || b.opacity > r[i - 1].opacity)).toBe(true);
    expect(r[0].opacity).toBeCloseTo(heatOpacity(1 / 32), 4);
    expect(r[15].opacity).toBeCloseTo(heatOpacity(31 / 32), 4);
  });
});
