// A large stored run, end to end of its pure parts: what the stored-run worker hands the page and
// the page reads back (web/src/lib/runs/stored-check.ts packNumbers / unpackNumbers), the checks it
// runs there (readHere), and the thinning of a long series for drawing
// (web/src/components/common/chart.ts thin), a long curve kept as numbers and its M4 reduction
// (web/src/lib/curve.ts), and Figure 4 drawing a run of 10⁵ steps from it (fig4/transform.ts).
// Table-driven where it can be.
import { describe, expect, it } from 'vitest';
import { PACK_MIN, packNumbers, readHere, unpackNumbers } from '../../web/src/lib/runs/stored-check';
import { columnsOf, shownPoints, thin, type XY } from '../../web/src/components/common/chart';
import { curveOf, curvePoints, m4, m4Cached } from '../../web/src/lib/curve';
import { buildPanels, LONG_CURVE, valuesAt } from '../../web/src/figures/fig4/transform';
import { leavesPlateauAt, meanFirstBelow, meanLeavesPlateauAt, seedMean, seedMeanAt, type GridResult } from '../../web/src/engine/documents';
import { firstBelow } from '../../web/src/lib/prose-numbers';
import grid from '../../public/data/grid.json';
import { SLOT_NAMES } from '../../web/src/lib/slots';

const long = (n: number, f = (i: number) => i * 0.5) => Array.from({ length: n }, (_, i) => f(i));

describe('packNumbers / unpackNumbers', () => {
  it.each([
    ['a short list stays a list', { loss: [1, 2, 3] }, 0],
    ['a long list of numbers, nulls kept', { runs: [{ loss: long(PACK_MIN, (i) => (i % 7 ? i / 3 : null) as number) }] }, 1],
    ['strings and objects untouched', { a: 'x', b: { c: [true, 'y', null] }, d: long(PACK_MIN + 1) }, 1],
    ['a long list with a string is not packed', { loss: [...long(PACK_MIN), 'x'] }, 0],
  ])('%s', (_, doc, packed) => {
    const transfer: ArrayBuffer[] = [];
    const p = packNumbers(doc, transfer);
    expect(transfer).toHaveLength(packed);
    expect(unpackNumbers(structuredClone(p))).toEqual(doc);
  });
  it('a packed list is a Float64Array whose buffer is transferred', () => {
    const transfer: ArrayBuffer[] = [];
    const p = packNumbers({ loss: long(PACK_MIN) }, transfer) as { loss: { f64: Float64Array } };
    expect(p.loss.f64).toBeInstanceOf(Float64Array);
    expect(transfer).toEqual([p.loss.f64.buffer]);
  });
});

describe('readHere (the worker checks what it read)', () => {
  const entry = (over: Record<string, unknown>) => ({
    id: 'r1',
    slot: 'grid',
    name: '#1',
    createdAt: '2026-01-01T00:00:00.000Z',
    config: { steps: 3 },
    status: 'done',
    elapsedMs: 1,
    doc: null,
    ...over,
  });
  it('keeps the good, nulls and names the bad', async () => {
    const values = [entry({ status: 'partial' }), entry({ slot: 'nope' }), 7];
    const r = await readHere(async () => values, SLOT_NAMES);
    expect(r.values).toEqual([values[0], null, null]);
    expect(r.problems[0]).toBeNull();
    expect(r.problems[1]).toMatch(/not one this page draws/);
    expect(r.problems[2]).toMatch(/not an object/);
  });
});

describe('thin', () => {
  const pts = (ys: number[]): XY[] => ys.map((y, i) => ({ x: i + 1, y }));
  it('leaves a series that fits as it is (the same array)', () => {
    const p = pts(long(400));
    expect(thin(p, 400)).toBe(p);
  });
  it('keeps every bucket’s first, last, lowest and highest point, in order', () => {
    const p = pts(long(100000, (i) => Math.sin(i / 50) + (i === 51234 ? 9 : 0) - (i === 7777 ? 9 : 0)));
    const t = thin(p, 4000);
    expect(t.length).toBeLessThanOrEqual(4000);
    expect(t[0]).toBe(p[0]);
    expect(t.at(-1)).toBe(p.at(-1));
    expect(t).toContain(p[51234]);
    expect(t).toContain(p[7777]);
    expect(t.every((q, i) => i === 0 || q.x > t[i - 1].x)).toBe(true);
    expect(Math.max(...t.map((q) => q.y))).toBe(Math.max(...p.map((q) => q.y)));
  });
  it('keeps a gap a gap', () => {
    const p = pts(long(10000, (i) => (i === 4321 ? NaN : i)));
    expect(thin(p, 400).some((q) => Number.isNaN(q.y))).toBe(true);
  });
});

// ---- a long curve kept as numbers (web/src/lib/curve.ts), and Figure 4 drawing one ----

describe('m4: per pixel column the first, lowest, highest and last point', () => {
  /** y values at x = 1 … n over domain [0, n], `cols` columns */
  const reduce = (ys: number[], cols: number, domain: [number, number] = [0, ys.length]) => m4({ ys, x0: 1 }, domain, cols);
  it.each([
    // name, ys, columns, the kept points' x
    ['a flat line: each column’s first and last', long(40, () => 2), 4, [1, 9, 10, 19, 20, 29, 30, 40]],
    ['a rising line: the same two (first = lowest, last = highest)', long(40, (i) => i), 4, [1, 9, 10, 19, 20, 29, 30, 40]],
    ['a spike in one column is kept there, beside its first and last', long(40, (i) => (i === 24 ? 9 : 1)), 4, [1, 9, 10, 19, 20, 25, 29, 30, 40]],
    ['a dip and a peak in one column, in x order', long(40, (i) => (i === 12 ? -3 : i === 14 ? 7 : 0)), 4, [1, 9, 10, 13, 15, 19, 20, 29, 30, 40]],
    ['NaN: a column’s first gap is kept (a gap stays a gap)', long(40, (i) => (i === 5 || i === 6 ? NaN : 1)), 4, [1, 6, 9, 10, 19, 20, 29, 30, 40]],
    [
      '±∞ are gaps too, never a column’s lowest or highest',
      long(40, (i) => (i === 33 ? Infinity : i === 35 ? -Infinity : 1)),
      4,
      [1, 9, 10, 19, 20, 29, 30, 34, 40],
    ],
    ['a column of gaps only keeps its first', long(40, (i) => (i >= 9 && i < 19 ? NaN : 1)), 4, [1, 9, 10, 20, 29, 30, 40]],
  ])('%s', (_, ys, cols, xs) => {
    const out = reduce(ys, cols);
    expect(out.map((p) => p.x)).toEqual(xs);
    out.forEach((p) => expect(Object.is(p.y, ys[p.x - 1])).toBe(true));
  });
  it.each([
    ['no more than 4 points per column', 40, 10],
    ['fewer points than columns', 7, 600],
    ['a domain of no width', 100, 3],
  ])('%s: every point, unchanged', (name, n, cols) => {
    const ys = long(n, (i) => Math.sin(i));
    const out = reduce(ys, cols, name.includes('no width') ? [5, 5] : [0, n]);
    expect(out).toEqual(ys.map((y, i) => ({ x: i + 1, y })));
  });
  it('keeps the exact first and last points, and each column’s extremes, of a long noisy curve', () => {
    let s = 12345;
    const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const n = 100000;
    const cols = 377;
    const ys = long(n, (i) => 1.4 + 4 * Math.exp(-i / 3000) + 0.1 * rnd() + (i === 77777 ? 5 : 0));
    const out = reduce(ys, cols);
    expect(out.length).toBeLessThanOrEqual(4 * cols);
    expect(out[0]).toEqual({ x: 1, y: ys[0] });
    expect(out.at(-1)).toEqual({ x: n, y: ys[n - 1] });
    expect(out.every((p, i) => i === 0 || p.x > out[i - 1].x)).toBe(true);
    const colOf = (x: number) => Math.min(cols - 1, Math.floor((x / n) * cols));
    const want = new Map<number, number[]>();
    ys.forEach((y, i) => want.set(colOf(i + 1), [...(want.get(colOf(i + 1)) ?? []), y]));
    for (const [c, all] of want) {
      const kept = out.filter((p) => colOf(p.x) === c).map((p) => p.y);
      expect([Math.min(...kept), Math.max(...kept)]).toEqual([Math.min(...all), Math.max(...all)]);
    }
    expect(out).toContainEqual({ x: 77778, y: ys[77777] });
  });
  it('m4Cached: one reduction per curve, domain and width', () => {
    const c = { ys: long(10000, Math.sin), x0: 1 };
    const a = m4Cached(c, [0, 10000], 300);
    expect(m4Cached(c, [0, 10000], 300)).toBe(a);
    expect(m4Cached(c, [0, 10000], 200)).not.toBe(a);
    expect(m4Cached(c, [0, 10000], 200)).toEqual(m4(c, [0, 10000], 200));
  });
});

describe('curvePoints: a curve as a list of points, made where read', () => {
  const ys = [3, 1, NaN, 4];
  const pts = curvePoints({ ys, x0: 1 });
  it('reads as the list of its points', () => {
    expect(pts).toHaveLength(4);
    expect(pts[1]).toEqual({ x: 2, y: 1 });
    expect(pts[9]).toBeUndefined();
    expect(Array.isArray(pts)).toBe(true);
    expect([...pts]).toEqual([
      { x: 1, y: 3 },
      { x: 2, y: 1 },
      { x: 3, y: NaN },
      { x: 4, y: 4 },
    ]);
    expect(pts.filter((p) => Number.isFinite(p.y)).map((p) => p.x)).toEqual([1, 2, 4]);
  });
  it('knows its curve (the layers draw that), and no other list has one', () => {
    expect(curveOf(pts)?.ys).toBe(ys);
    expect(curveOf([{ x: 1, y: 1 }])).toBeNull();
  });
  it('is read-only', () => {
    expect(() => (pts[0] = { x: 0, y: 0 })).toThrow(/read-only/);
    expect(() => pts.push({ x: 5, y: 5 })).toThrow(/read-only/);
  });
  it('shownPoints draws a curve from its M4 reduction, any other list thinned as before', () => {
    const big = curvePoints({ ys: long(50000, Math.cos), x0: 1 });
    expect(shownPoints(big, [0, 50000], 300)).toEqual(m4({ ys: long(50000, Math.cos), x0: 1 }, [0, 50000], columnsOf(300)));
    const plain = long(5000, Math.cos).map((y, i) => ({ x: i + 1, y }));
    expect(shownPoints(plain, [0, 5000], 300)).toEqual(thin(plain, 1200));
  });
});

describe('Figure 4 drawing a run of 10⁵ steps', () => {
  const steps = LONG_CURVE * 4;
  const G = structuredClone(grid) as unknown as GridResult;
  const lr = G.config.lrs[0];
  G.config = { ...G.config, steps, placements: ['post', 'pre'], warmups: [0], lrs: [lr], seeds: [0, 1, 2] };
  G.runs = ['post', 'pre'].flatMap((placement) =>
    [0, 1, 2].map((seed) => ({
      ...grid.runs[0],
      placement: placement as GridResult['runs'][number]['placement'],
      warmup: 0,
      lr,
      seed,
      status: 'ok' as const,
      stop_step: null,
      loss: long(steps, (i) => 1.4 + 4 * Math.exp(-i / (placement === 'pre' ? 200 : 3000 * (seed + 1))) + 0.01 * Math.sin(i)),
    })),
  );
  const P = buildPanels(G);
  const s = P.panels[0].series[0];
  it('keeps its curves as numbers, built once per document', () => {
    expect(curveOf(s.mean)).not.toBeNull();
    expect(curveOf(s.seeds[0].points)?.ys).toBe(G.runs[0].loss);
    expect(buildPanels(G)).toBe(P);
  });
  it('reads the same as the points it stands for: the seed mean, the readout, the plateau share', () => {
    const runs = G.runs.filter((r) => r.placement === s.placement);
    const mean = seedMean(runs);
    expect(s.mean).toHaveLength(steps);
    for (const t of [1, 2, 777, steps]) expect(s.mean[t - 1]).toEqual({ x: t, y: mean[t - 1] });
    expect(valuesAt(P.panels[0], steps)[0].y).toBe(mean[steps - 1]);
    expect(valuesAt(P.panels[0], steps + 1)[0].y).toBeNull();
    expect(s.onPlateau).toEqual(
      plateauShareByStep(
        runs.map((r) => r.loss),
        G.plateau_entropy,
      ),
    );
  });
  it('seedMean (a loop per run) gives the bits a sum over the runs at each step gives', () => {
    const runs = G.runs.slice(0, 5);
    const n = Math.min(...runs.map((r) => r.loss.length));
    const want = Array.from({ length: n }, (_, t) => runs.reduce((a, r) => a + r.loss[t], 0) / runs.length);
    expect(seedMean(runs)).toEqual(want);
    expect(seedMean(runs).every((m, t) => Object.is(m, want[t]))).toBe(true);
  });
  it('seedMeanAt, meanFirstBelow, meanLeavesPlateauAt: one step of the seed mean, the same bits as the whole curve', () => {
    // seeds of unequal length (a diverged one, cut short), a NaN inside one
    const runs = G.runs.slice(0, 3).map((r, k) => ({ ...r, loss: k === 1 ? r.loss.slice(0, 900).map((v, i) => (i === 40 ? NaN : v)) : r.loss }));
    const mean = seedMean(runs);
    for (const t of [0, 1, 40, 899]) expect(Object.is(seedMeanAt(runs, t), mean[t])).toBe(true);
    for (const t of [-1, 900, steps]) expect(seedMeanAt(runs, t)).toBeUndefined();
    expect(seedMeanAt([], 0)).toBeUndefined();
    for (const y of [Infinity, mean[0], mean[200], mean[899], 0]) expect(meanFirstBelow(runs, y)).toBe(firstBelow(mean, y));
    expect(meanFirstBelow([], 5)).toBeNull();
    for (const plateau of [G.plateau_entropy, mean[500] + 0.5, 0]) expect(meanLeavesPlateauAt(runs, plateau)).toBe(leavesPlateauAt(mean, plateau));
  });
  it('a run of LONG_CURVE steps or fewer gets its points made, as before', () => {
    const short = { ...G, runs: G.runs.map((r) => ({ ...r, loss: r.loss.slice(0, LONG_CURVE) })) };
    const q = buildPanels(short).panels[0].series[0];
    expect(curveOf(q.mean)).toBeNull();
    expect(curveOf(q.seeds[0].points)).toBeNull();
    expect(q.mean[LONG_CURVE - 1].x).toBe(LONG_CURVE);
  });
});

/** The plateau share the slow way (every seed at every step): what plateauShare gives in one pass. */
function plateauShareByStep(losses: number[][], plateau: number): XY[] {
  const left = losses.map((l) => leavesPlateauAt(l, plateau) ?? Infinity);
  const n = Math.max(...losses.map((l) => l.length));
  const out: XY[] = [];
  let y = NaN;
  let t = 1;
  for (; t <= n; t++) {
    const here = losses.filter((l) => l.length >= t).length;
    if (!here) break;
    const share = left.filter((s, k) => losses[k].length >= t && s > t).length / here;
    if (share !== y) out.push({ x: t, y: (y = share) });
  }
  if (out.length && out[out.length - 1].x !== t - 1) out.push({ x: t - 1, y });
  return out;
}
