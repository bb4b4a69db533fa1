// Figure 4: runs that can be compared (issue 27, item 6) — the style tables (one pattern, one
// meaning), each drawn run's marker and legend facts, the stable run numbers, the x axis over what
// is drawn, and the end tags' layout (no two overlap, inside the plot, leader lines where moved).
import { describe, expect, it } from 'vitest';
import {
  buildLayers,
  layersXDomain,
  lineMarks,
  placeTags,
  RULE_DASHES,
  RUN_SHAPES,
  runName,
  runShapes,
  spread,
  WARMUP_DASHES,
  warmupDash,
  type Layer,
  type PlacedTag,
  type TagAnchor,
} from '../../web/src/figures/fig4/transform';
import { DASH } from '../../web/src/lib/palette';
import { SHAPES } from '../../web/src/lib/marker';
import { boundsOf } from '../../web/src/lib/fields';
import { GRID } from '../../web/src/lib/settings';

/** how many warm-ups a run of the lab may have (the grid table's bound) */
const LAB_WARMUPS = boundsOf(GRID, GRID.rows.find((r) => r.field === 'warmups')!).items;
import type { GridResult } from '../../web/src/engine/documents';
import { grid } from './fixtures';

/** A live run: the grid's runs cut to `steps`, with other settings. */
function liveRun(
  steps: number,
  { seeds = [0], optimizer = 'adam', warmups = [0] }: { seeds?: number[]; optimizer?: string; warmups?: number[] } = {},
): GridResult {
  const g = grid();
  g.config = { ...g.config, steps, seeds, optimizer, warmups } as GridResult['config'];
  g.runs = g.runs.filter((r) => seeds.includes(r.seed) && warmups.includes(r.warmup)).map((r) => ({ ...r, loss: r.loss.slice(0, steps) }));
  return g;
}
const layer = (key: string, doc: GridResult, index: number | null, label = index == null ? 'reference' : `#${index}`, muted = index == null): Layer => ({
  key,
  doc,
  muted,
  label,
  index,
});

describe('fig4 style tables: one pattern, one meaning', () => {
  const patterns: [string, string][] = [
    ...WARMUP_DASHES.map((d, i): [string, string] => [`warm-up ${i}`, d]),
    ...Object.entries(RULE_DASHES).map(([k, d]): [string, string] => [`rule ${k}`, d]),
  ];
  it.each(patterns.flatMap((a, i) => patterns.slice(i + 1).map((b) => [a[0], b[0], a[1], b[1]])))('%s ≠ %s', (_a, _b, da, db) => {
    expect(da).not.toBe(db);
  });
  it('the optimum stays dotted (the caption says so), no warm-up stays solid', () => {
    expect(RULE_DASHES.optimal).toBe(DASH.dotted);
    expect(WARMUP_DASHES[0]).toBe(DASH.solid);
    expect(WARMUP_DASHES[1]).toBe(DASH.dashed);
  });
  it('warm-up dashes hold no dots (the rules are the dotted ones)', () => {
    // a dot: a dash shorter than 2 px
    for (const d of WARMUP_DASHES.slice(1)) {
      const dashes = d
        .split(' ')
        .map(Number)
        .filter((_, i) => i % 2 === 0);
      expect(Math.min(...dashes), d).toBeGreaterThanOrEqual(2.5);
    }
  });
  it.each([
    [[0, 300], 300, DASH.dashed],
    [[0, 100, 300], 300, DASH.long],
    [[0, 100, 300], 100, DASH.dashed],
    [[0, 50, 100, 300], 300, DASH.short],
    [[50, 100, 200, 300], 300, DASH.longShort],
    [[0, 300], 0, DASH.solid],
  ])('warmupDash(%j): %i → "%s"', (ws, w, want) => expect(warmupDash(w, ws)).toBe(want));
  it(`the lab's warm-ups of a run and the reference's together get distinct dashes (up to ${LAB_WARMUPS} + 1)`, () => {
    const ws = [0, 100, 200, 300];
    expect(ws.length).toBe(LAB_WARMUPS + 1);
    expect(new Set(ws.map((w) => warmupDash(w, ws))).size).toBe(ws.length);
    // the 300-step warm-up never looks like the plateau rule
    for (const list of [
      [0, 300],
      [0, 100, 300],
      [0, 50, 100, 300],
    ])
      expect(warmupDash(300, list)).not.toBe(RULE_DASHES.plateau);
  });
  it("the runs' markers are distinct shapes of the page's set", () => {
    expect(new Set(RUN_SHAPES).size).toBe(RUN_SHAPES.length);
    for (const s of RUN_SHAPES) expect(SHAPES).toContain(s);
    expect(RUN_SHAPES[0]).toBe('circle');
  });
});

describe('fig4 runs: names, markers, legend facts', () => {
  it.each([
    [3, '#3', '#3'],
    [3, 'baseline', '#3 baseline'],
    [12, '', '#12'],
    [null, 'reference', 'reference'],
  ])('runName(%j, %j) = %j', (n, label, want) => expect(runName(n as number | null, label)).toBe(want));

  it.each([
    // drawing order (keys with numbers) → markers by number, the reference none
    [
      [
        ['a', 3],
        ['b', 1],
        ['c', 2],
      ],
      { a: 'diamond', b: 'circle', c: 'square' },
    ],
    [[['x', 7]], { x: 'circle' }],
    [
      [
        ['a', 1],
        ['b', 2],
        ['c', 3],
        ['d', 4],
        ['e', 5],
        ['f', 6],
      ],
      { a: 'circle', b: 'square', c: 'diamond', d: 'triangle', e: 'triangle-down', f: 'circle' },
    ],
  ] as [[string, number][], Record<string, string>][])('runShapes %j', (runs, want) => {
    const layers = [{ key: 'reference', muted: true, index: null }, ...runs.map(([key, index]) => ({ key, muted: false, index }))];
    expect(Object.fromEntries(runShapes(layers))).toEqual(want);
  });

  const ref = grid(); // 200 steps, 2 seeds, adam
  const m = buildLayers([
    layer('reference', ref, null),
    layer('r1', liveRun(40), 1),
    layer('r2', liveRun(60, { seeds: [0, 1], optimizer: 'sgd' }), 2, 'momentum'),
    layer('r3', liveRun(80, { warmups: [0, 100] }), 3),
  ]);
  it("each drawn document's facts: its number and name, seeds, steps, optimizer where it differs from the reference", () => {
    expect(m.facts.map(({ key, index, shape, seeds, steps, optimizer, muted }) => ({ key, index, shape, seeds, steps, optimizer, muted }))).toEqual([
      { key: 'reference', index: null, shape: null, seeds: 2, steps: 200, optimizer: 'adam', muted: true },
      { key: 'r1', index: 1, shape: 'circle', seeds: 1, steps: 40, optimizer: null, muted: false },
      { key: 'r2', index: 2, shape: 'square', seeds: 2, steps: 60, optimizer: 'sgd', muted: false },
      { key: 'r3', index: 3, shape: 'diamond', seeds: 1, steps: 80, optimizer: null, muted: false },
    ]);
  });
  it("every series of a run carries its number and marker; the reference's none", () => {
    const s = m.panels[0].series;
    expect(s.filter((x) => x.muted).every((x) => x.shape === null && x.index === null)).toBe(true);
    expect([...new Set(s.filter((x) => !x.muted).map((x) => `${x.index}:${x.shape}`))]).toEqual(['1:circle', '2:square', '3:diamond']);
  });
  it("a run's dash is still its warm-up's, the same as the reference's for the same length", () => {
    const dash = (layer: string, w: number) => m.panels[0].series.find((x) => x.layer === layer && x.warmup === w)?.dash;
    expect(dash('r3', 100)).toBe(dash('reference', 100));
    expect(dash('r3', 0)).toBe(DASH.solid);
  });
});

describe('fig4 x axis: the union of what is drawn', () => {
  const ref = grid(); // 200 steps
  it.each([
    ['the reference alone', [layer('reference', ref, null, 'reference', false)], [0, 200]],
    ['a 40-step run over the reference', [layer('reference', ref, null), layer('r1', liveRun(40), 1)], [0, 200]],
    ['a 40-step run alone (no reference)', [layer('r1', liveRun(40), 1)], [0, 40]],
    ['two runs, 40 and 150 steps, alone', [layer('r1', liveRun(40), 1), layer('r2', liveRun(150), 2)], [0, 150]],
    [
      'a run longer than the reference',
      [
        layer('reference', ref, null),
        layer(
          'r1',
          (() => {
            const g = liveRun(200);
            g.config = { ...g.config, steps: 600 };
            return g;
          })(),
          1,
        ),
      ],
      [0, 600],
    ],
  ] as [string, Layer[], [number, number]][])('%s → %j', (_name, layers, want) => {
    expect(buildLayers(layers).xDomain).toEqual(want);
  });
  it('each panel fits what is drawn in it: a run at a peak lr the reference did not run gets its own length', () => {
    const sgd = liveRun(30, { optimizer: 'sgd' });
    sgd.runs = sgd.runs.filter((r) => r.lr === 0.001).map((r) => ({ ...r, lr: 0.05 }));
    sgd.config = { ...sgd.config, lrs: [0.05] };
    const m = buildLayers([layer('reference', ref, null), layer('r1', liveRun(40), 1), layer('r3', sgd, 3)]);
    expect(m.panels.map((p) => [p.lr, p.xDomain, p.steps])).toEqual([
      [0.001, [0, 200], 200],
      [0.003, [0, 200], 200],
      [0.05, [0, 30], 30],
    ]);
    expect(m.xDomain).toEqual([0, 200]);
  });
  it('a streaming run spans its configured steps; a document with nothing drawn adds nothing', () => {
    expect(
      layersXDomain([
        { xDomain: [0, 300], panels: [{ lr: 1, series: [] }] },
        { xDomain: [0, 900], panels: [] },
      ]),
    ).toEqual([0, 300]);
    expect(layersXDomain([])).toEqual([0, 1]);
  });
});

/** No two tags' boxes overlap (touching is allowed). */
const overlaps = (tags: PlacedTag[], size: number) =>
  tags.flatMap((a, i) =>
    tags
      .slice(i + 1)
      .filter((b) => Math.abs(a.px - b.px) < size - 1e-6 && Math.abs(a.py - b.py) < size - 1e-6)
      .map((b) => `${a.key}×${b.key}`),
  );
type Box = { width: number; height: number; size: number; ahead?: number; margin?: number };
const inside = (tags: PlacedTag[], { width, height, size, margin = 0 }: Box) =>
  tags
    .filter((t) => t.px < size / 2 - 1e-6 || t.px > width + margin - size / 2 + 1e-6 || t.py < size / 2 - 1e-6 || t.py > height - size / 2 + 1e-6)
    .map((t) => t.key);
const at = (...xy: [number, number][]): TagAnchor[] => xy.map(([x, y], i) => ({ key: `t${i}`, x, y }));

describe('fig4 end tags: placeTags', () => {
  const box = { width: 300, height: 198, size: 17 };
  const phone = { width: 290, height: 198, size: 17 }; // a 390 px wide page: one panel per row
  const beside = { ...phone, ahead: 9.5, margin: 20 }; // as Figure 4 places them: past the line's end, in the right margin
  it.each([
    ['apart: nobody moves', box, at([300, 20], [300, 80], [300, 150])],
    ['three runs ending at one point', phone, at([290, 100], [290, 100], [290, 100])],
    ['two pairs at the same steps, close losses', box, at([300, 50], [300, 55], [300, 57], [300, 130])],
    ['crowded at the top edge', box, at([300, 0], [300, 2], [300, 4], [300, 6])],
    ['crowded at the bottom edge (and beyond it)', phone, at([290, 198], [290, 196], [290, 230], [290, 190])],
    ['runs of nearly the same length (x 5 px apart)', phone, at([290, 100], [285, 104], [280, 96])],
    ['runs of different lengths: own columns', box, at([24, 100], [60, 100], [300, 100])],
    [
      'three runs × 8 lines ending together (more than a column holds)',
      phone,
      Array.from({ length: 24 }, (_, i) => ({ key: `t${i}`, x: 290, y: 60 + (i % 8) * 3 })),
    ],
    ['24 tags on a short plot', { width: 290, height: 60, size: 17 }, Array.from({ length: 24 }, (_, i) => ({ key: `t${i}`, x: 290 - (i % 3) * 4, y: 30 }))],
    ['beside the ends: three runs ending at one point in the margin', beside, at([290, 100], [290, 100], [290, 101])],
    ['beside the ends: runs of different lengths, close losses', beside, at([100, 100], [110, 102], [290, 100], [283, 99])],
    ['beside the ends: 24 lines ending together', beside, Array.from({ length: 24 }, (_, i) => ({ key: `t${i}`, x: 290, y: 60 + (i % 8) * 3 }))],
    [
      "a column spilling left into a shorter run's tags",
      phone,
      [...Array.from({ length: 14 }, (_, i) => ({ key: `a${i}`, x: 290, y: 100 })), { key: 'b', x: 275, y: 100 }, { key: 'c', x: 250, y: 100 }],
    ],
  ] as [string, Box, TagAnchor[]][])('%s: no two overlap, all inside the plot (and its margin)', (_name, b, anchors) => {
    const tags = placeTags(anchors, b);
    expect(tags.map((t) => t.key)).toEqual(anchors.map((a) => a.key));
    expect(overlaps(tags, b.size)).toEqual([]);
    // inside vertically always; horizontally while the columns fit (they do in all of these)
    expect(inside(tags, b)).toEqual([]);
  });
  it('tags that need not move stay at their anchors, with no leader line', () => {
    const tags = placeTags(at([200, 20], [200, 80], [100, 81]), box);
    expect(tags.map((t) => [t.px, t.py, t.moved])).toEqual([
      [200, 20, false],
      [200, 80, false],
      [100, 81, false],
    ]);
  });
  it('moved tags keep their order in y and are marked for a leader line', () => {
    const tags = placeTags(at([300, 105], [300, 100], [300, 110]), box);
    // sorted 100, 105, 110; pushed 17 apart around the mean of their wishes: 88, 105, 122
    expect(tags.map((t) => t.py)).toEqual([105, 88, 122].map((v) => expect.closeTo(v, 6)));
    expect(tags.every((t) => t.moved)).toBe(true);
    expect(tags[1].py).toBeLessThan(tags[0].py);
    expect(tags[0].py).toBeLessThan(tags[2].py);
    // at the right edge a tag sits inside the plot (and says it moved)
    expect(placeTags(at([300, 50]), box)[0]).toMatchObject({ px: 291.5, py: 50, moved: true });
    // as Figure 4 places them: just past the line's end, and at the right edge in the margin
    expect(placeTags(at([100, 50], [290, 50]), { ...phone, ahead: 9.5, margin: 20 }).map((t) => [t.px, t.py])).toEqual([
      [109.5, 50],
      [299.5, 50],
    ]);
    expect(placeTags(at([300, 50]), { ...box, ahead: 9.5, margin: 10 })[0].px).toBe(301.5);
  });
  it('non-finite anchors are left out', () => {
    expect(
      placeTags(
        [
          { key: 'a', x: NaN, y: 1 },
          { key: 'b', x: 10, y: 50 },
        ],
        box,
      ).map((t) => t.key),
    ).toEqual(['b']);
  });
});

describe('fig4 end tags: spread (one column)', () => {
  it.each([
    [[10, 50, 90], 17, 0, 200, [10, 50, 90]],
    [[100, 100], 10, 0, 200, [95, 105]],
    [[100, 100, 100], 10, 0, 200, [90, 100, 110]],
    [[0, 0, 0], 10, 5, 200, [5, 15, 25]],
    [[199, 200], 10, 0, 195, [185, 195]],
    [[50, 52, 120, 121], 10, 0, 200, [46, 56, 115.5, 125.5]],
    // merging cascades: the second pair pushes into the first
    [[50, 58, 62, 66], 10, 0, 200, [44, 54, 64, 74]],
  ])('spread(%j, gap %i, [%i, %i]) = %j', (ys, gap, lo, hi, want) => {
    const got = spread(ys, gap, lo, hi);
    got.forEach((v, i) => expect(v).toBeCloseTo(want[i], 6));
  });
});

describe('fig4 run markers along a line: lineMarks', () => {
  const line = Array.from({ length: 301 }, (_, i) => ({ x: i, y: 100 }));
  it("about every `every` px, staggered by the run's place, none near the end", () => {
    expect(lineMarks(line, 0, { every: 60, clear: 16 }).map((p) => p.x)).toEqual([10, 70, 130, 190, 250]);
    expect(lineMarks(line, 1, { every: 60, clear: 16 }).map((p) => p.x)).toEqual([20, 80, 140, 200, 260]);
    expect(lineMarks(line, 4, { every: 60, clear: 16 }).map((p) => p.x)).toEqual([50, 110, 170, 230]);
  });
  it("the runs' marks never fall on the same x", () => {
    const xs = RUN_SHAPES.map((_, k) => lineMarks(line, k).map((p) => p.x));
    for (let a = 0; a < xs.length; a++) for (let b = a + 1; b < xs.length; b++) expect(xs[a].filter((x) => xs[b].includes(x))).toEqual([]);
  });
  it('a short line carries none; gaps are skipped', () => {
    expect(lineMarks(line.slice(0, 20), 0)).toEqual([]);
    expect(lineMarks([{ x: 0, y: NaN }], 0)).toEqual([]);
    const gappy = line.map((p) => (p.x > 5 && p.x < 15 ? { x: p.x, y: NaN } : p));
    expect(lineMarks(gappy, 0, { every: 60 })[0]).toEqual({ x: 15, y: 100 });
  });
});
