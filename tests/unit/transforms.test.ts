import { describe, expect, it } from 'vitest';
import { sensitivityAxes, sensitivityChart } from '../../web/src/figures/fig5/transform';
import { earlyAndEveryTenth, evenlySpaced, labelsThatFit, logTicks, lrTicks, paddedLogDomain, stepsTo } from '../../web/src/lib/axis';
import { fig5Table } from '../../web/src/figures/fig5/downloads';
import { MIN_FRAC, buildStack, slabAt, stepSelection } from '../../web/src/figures/fig2/transform';
import { depthAxes, layerAxes, nearest, panelA, panelB, panelC, yExtent } from '../../web/src/figures/fig3/transform';
import { buildLayers, buildPanels, tableSteps, valuesAt, warmupDash } from '../../web/src/figures/fig4/transform';
import { DASH } from '../../web/src/lib/palette';
import {
  adamFirstStep,
  adamFirstStepCf,
  depthFactors,
  grid,
  outputSensitivity,
  phaseDiagram,
  plateauShare,
  probe,
  sharpness,
  stepSize,
  tiedOutput,
  warmupLength,
} from './fixtures';
import { sharpnessAxes, sharpnessChart, valueAt as shAt } from '../../web/src/figures/fig12/transform';
import { fig12Json, fig12Table } from '../../web/src/figures/fig12/downloads';
import { cellAt as mapCellAt, cellConfig, cellCurves, cellRuns, firstPick, mapView, phaseMap, pickAt, stepPick } from '../../web/src/figures/fig15/transform';
import { fig15Table } from '../../web/src/figures/fig15/downloads';
import { cellAtLr, insuranceChart, insuranceView } from '../../web/src/figures/fig14/transform';
import { fig14Table } from '../../web/src/figures/fig14/downloads';
import { escapeDoc, escapeRowsView } from '../../web/src/figures/fig13/transform';
import { fig13Table } from '../../web/src/figures/fig13/downloads';
import { phaseTally, runCurve, type PhaseCell } from '../../web/src/experiments/phase-diagram';
import { stepSizeAxes, stepSizeChart, pointAt as ssAt } from '../../web/src/figures/fig10/transform';
import { fig10Table } from '../../web/src/figures/fig10/downloads';
import { depthFactorsChart, depthFactorsReference, layerTicks, at as dfAt } from '../../web/src/figures/fig11/transform';
import { fig11Table } from '../../web/src/figures/fig11/downloads';
import { cellAt, layerTicks as shareLayerTicks, recordingTicks, referencePanels, sharePanels } from '../../web/src/figures/fig9/transform';
import { fig9Table } from '../../web/src/figures/fig9/downloads';
import { escapeChart, escapeView, pointAt as escAt, warmupX } from '../../web/src/figures/fig8/transform';
import { fig8Table } from '../../web/src/figures/fig8/downloads';
import { adamAxes, adamChart, valueAt } from '../../web/src/figures/fig7/transform';
import { fig7Table } from '../../web/src/figures/fig7/downloads';
import { cfAxes, cfChart, groupRms, valueAt as cfAt } from '../../web/src/figures/fig17/transform';
import { fig17Json, fig17Table } from '../../web/src/figures/fig17/downloads';
import { EMPTY as LS_EMPTY, logitAtStep, logitOverSeeds, lsChart, lsView, pointAtLr } from '../../web/src/figures/fig18/transform';
import { fig18Json, fig18Table } from '../../web/src/figures/fig18/downloads';
import { tiedAxes, tiedChart } from '../../web/src/figures/fig6/transform';
import { fig6Table } from '../../web/src/figures/fig6/downloads';
import { extentOf, unionDomain, unionValues } from '../../web/src/components/common/chart';

describe('fig2 buildStack', () => {
  const s = buildStack(probe());
  it('has L layers and the Final LN on top', () => {
    expect(s.L).toBe(3);
    expect(s.slabs.map((x) => x.kind)).toEqual(['layer', 'layer', 'layer', 'final']);
    expect(s.slabs.map((x) => x.layer)).toEqual([1, 2, 3, 4]);
  });
  it('width ∝ √(‖x‖²/d), widest = 1', () => {
    expect(s.slabs[2].widthFrac).toBeCloseTo(1);
    expect(s.slabs[0].widthFrac).toBeCloseTo(Math.sqrt(2 / 4));
    expect(s.slabs[3].widthFrac).toBeCloseTo(Math.max(MIN_FRAC, Math.sqrt(1 / 4)));
  });
  it('carries the measured values and the gain', () => {
    expect(s.slabs[1]).toMatchObject({ norm2: 3, std: 0.1, lo: 2, hi: 4 });
    expect(s.gain).toEqual({ mean: 0.5, std: 0.02 });
  });
  it('is empty without data', () => expect(buildStack(null)).toEqual({ slabs: [], L: 0, gain: null }));
});

describe('fig2 selection', () => {
  it.each([
    [0, 'ArrowUp', 4, 1],
    [3, 'ArrowUp', 4, 3],
    [0, 'ArrowDown', 4, 0],
    [2, 'ArrowLeft', 4, 1],
    [2, 'Home', 4, 0],
    [0, 'End', 4, 3],
    [2, 'x', 4, 2],
    [9, 'x', 4, 3],
  ])('from %i %s (n=%i) → %i', (cur, key, n, want) => expect(stepSelection(cur, key, n)).toBe(want));
  it.each([
    [0, 100, 4, 3],
    [99, 100, 4, 0],
    [60, 100, 4, 1],
    [-20, 100, 4, 3],
    [150, 100, 4, 0],
  ])('slabAt(y=%i, h=%i, n=%i) = %i', (y, h, n, want) => expect(slabAt(y, h, n)).toBe(want));
});

describe('fig3 panels', () => {
  it('(a) picks the statistic, with ± std', () => {
    const a = panelA(probe(), 'W2_per_batch');
    expect(a.series.map((s) => s.placement)).toEqual(['post', 'pre']); // the engine's order
    const pre = a.series.find((s) => s.placement === 'pre')!.points;
    expect(pre.map((p) => p.y)).toEqual([4, 3, 2]);
    expect(pre[0]).toMatchObject({ x: 1, lo: 3.9, hi: 4.1 });
    expect(a.yDomain[0]).toBe(0);
    expect(a.yDomain[1]).toBeGreaterThan(4.1);
    expect(panelA(probe(), 'W2_per_layer').series[0].points.map((p) => p.y)).toEqual([0.5, 0.5, 0.5]);
  });
  it('(a) has a series for every placement the probe measured, none for the others', () => {
    const P = probe();
    P.placements.deepnorm = P.placements.post;
    delete P.placements.pre;
    expect(panelA(P, 'W2_per_layer').series.map((s) => s.placement)).toEqual(['post', 'deepnorm']);
    expect(panelC(P).extrap).toEqual([]); // no Pre-LN: no 1/√L line
  });
  it('(b) has the Lemma 2 band per layer', () => {
    const b = panelB(probe());
    expect(b.band).toEqual([
      { x: 1, lo: 1.5, hi: 2.5 },
      { x: 2, lo: 2, hi: 4 },
      { x: 3, lo: 2.5, hi: 5.5 },
    ]);
    expect(b.yDomain[1]).toBeGreaterThanOrEqual(5.5);
  });
  it('(c) sorts depths numerically and extrapolates 1/√L from the shallowest Pre-LN value', () => {
    const c = panelC(probe());
    expect(c.depths).toEqual([6, 8, 10]);
    expect(c.batch.find((s) => s.placement === 'pre')!.points.map((p) => p.y)).toEqual([1.6, 0.8, 0.4]);
    expect(c.paper.find((s) => s.placement === 'pre')!.points.map((p) => p.y)).toEqual([0.8, 0.4, 0.2]);
    expect(c.extrap[0].y).toBeCloseTo(1.6);
    expect(c.extrap[2].y).toBeCloseTo(1.6 * Math.sqrt(6 / 10));
    expect(c.xDomain).toEqual([5, 11]);
  });
  it('(c) is empty without depths', () => {
    const c = panelC(null);
    expect(c.depths).toEqual([]);
    expect(c.extrap).toEqual([]);
  });
  it('yExtent never returns an empty domain', () => {
    expect(yExtent([])).toEqual([0, 1]);
    expect(yExtent([{ x: 1, y: 0 }])).toEqual([0, 1]);
  });
  it('nearest', () => {
    expect(nearest([6, 8, 10], 8.9)).toBe(8);
    expect(nearest([], 1)).toBeNull();
  });
});

describe('fig4 layers: runs over the reference', () => {
  const ref = grid();
  // a live run: one lr the reference has, one it has not, a warm-up it has not, 50 steps
  const live = grid();
  live.config = { ...live.config, steps: 50 };
  live.runs = live.runs
    .filter((r) => r.placement === 'pre' && r.seed === 0 && r.warmup === 0)
    .map((r) => ({ ...r, lr: r.lr === 0.003 ? 0.01 : r.lr, loss: r.loss.slice(0, 50) }));
  live.runs.push({ ...live.runs[0], warmup: 300 });
  const m = buildLayers([
    { key: 'run1', doc: live, muted: false, label: '#1', index: 1 },
    { key: 'reference', doc: ref, muted: true, label: 'reference', index: null },
  ]);
  it('panels for every lr any layer ran; the muted reference is drawn first, under the run', () => {
    expect(m.panels.map((p) => p.lr)).toEqual([0.001, 0.003, 0.01]);
    expect(m.layers.map((l) => l.key)).toEqual(['reference', 'run1']);
    const keys = m.panels[0].series.map((s) => s.key);
    expect(keys.slice(0, 4).every((k) => k.startsWith('reference|'))).toBe(true);
    expect(keys.slice(4)).toEqual(['run1|pre|0|0.001', 'run1|pre|300|0.001']);
    expect(m.panels[2].series.map((s) => [s.layer, s.muted, s.index])).toEqual([
      ['run1', false, 1],
      ['run1', false, 1],
    ]);
  });
  it('one dash means one warm-up length across layers; axes span all of them', () => {
    expect(m.warmups).toEqual([0, 100, 300]);
    const dash = (w: number) => m.panels[0].series.find((s) => s.warmup === w)!.dash;
    expect([dash(0), dash(100), dash(300)]).toEqual([warmupDash(0, [0, 100, 300]), warmupDash(100, [0, 100, 300]), warmupDash(300, [0, 100, 300])]);
    expect(new Set([dash(0), dash(100), dash(300)]).size).toBe(3);
    expect(m.steps).toBe(200);
    expect(m.xDomain).toEqual([0, 200]);
    const a = buildPanels(ref).yDomain;
    const b = buildPanels(live).yDomain;
    expect(m.yDomain).toEqual([Math.min(a[0], b[0]), Math.max(a[1], b[1])]);
  });
  it('the readout reads every layer at the step', () => {
    const v = valuesAt(m.panels[0], 60);
    expect(v.filter((x) => x.series.layer === 'run1').map((x) => x.y)).toEqual([null, null]); // the run stopped at 50
    expect(v.filter((x) => x.series.layer === 'reference').every((x) => typeof x.y === 'number')).toBe(true);
  });
  it('no documents, no panels', () => {
    expect(buildLayers([]).panels).toEqual([]);
  });
});

describe('fig4 panels', () => {
  const m = buildPanels(grid());
  it('one panel per lr, ascending; one series per (placement, warm-up)', () => {
    expect(m.panels.map((p) => p.lr)).toEqual([0.001, 0.003]);
    expect(m.panels[0].series.map((s) => s.key)).toEqual(['post|0|0.001', 'post|100|0.001', 'pre|0|0.001', 'pre|100|0.001']);
    expect(m.warmups).toEqual([0, 100]);
    expect(m.xDomain).toEqual([0, 200]);
  });
  it('draws the seed mean and keeps the seeds', () => {
    const s = m.panels[0].series[3];
    expect(s.mean).toHaveLength(200);
    expect(s.mean[199].y).toBeCloseTo(1.55);
    expect(s.seeds.map((x) => x.seed)).toEqual([0, 1]);
    expect(s.complete).toBe(true);
  });
  it('solid = no warm-up, dashed = warm-up', () => {
    expect(m.panels[0].series[0].dash).toBe(DASH.solid);
    expect(m.panels[0].series[1].dash).toBe(DASH.dashed);
    expect(warmupDash(300, [0, 100, 300])).not.toBe(DASH.dashed);
  });
  it('y domain spans optimum to above the uniform loss', () => {
    expect(m.yDomain[0]).toBeLessThanOrEqual(1);
    expect(m.yDomain[1]).toBeGreaterThan(5.5);
  });
  it('a diverged run is marked at its step and the mean is not drawn past it', () => {
    const g = grid();
    const r = g.runs.find((x) => x.placement === 'post' && x.warmup === 0 && x.lr === 0.003 && x.seed === 1)!;
    Object.assign(r, { status: 'diverged', stop_step: 51, loss: r.loss.slice(0, 50) });
    const s = buildPanels(g).panels[1].series[0];
    expect(s.diverged).toEqual([{ seed: 1, step: 51, at: { x: 50, y: 5 } }]);
    expect(s.mean).toHaveLength(50);
    expect(s.seeds[1].points).toHaveLength(50);
    expect(s.complete).toBe(false);
  });
  it('streaming: partial runs draw what exists, x domain is the configured steps', () => {
    const g = grid();
    for (const r of g.runs) Object.assign(r, { status: 'running', loss: r.loss.slice(0, 30) });
    const p = buildPanels(g);
    expect(p.xDomain).toEqual([0, 200]);
    expect(p.panels[0].series[0].mean).toHaveLength(30);
  });
  it('valuesAt gives null past the end', () => {
    const v = valuesAt(m.panels[0], 201);
    expect(v.every((x) => x.y === null)).toBe(true);
    expect(valuesAt(m.panels[0], 1)[0].y).toBe(5);
  });
  it('empty grid → no panels', () => expect(buildPanels(null).panels).toEqual([]));
  it.each([
    [20, [1, 10, 20]],
    [500, [1, 100, 200, 300, 400, 500]],
    [1000, [1, 200, 400, 600, 800, 1000]],
  ])('tableSteps(%i)', (n, want) => expect(tableSteps(n)).toEqual(want));
});

describe('fig5 sensitivityChart', () => {
  it('draws one series per placement in the engine order, with both guides through their anchors', () => {
    const c = sensitivityChart(outputSensitivity());
    expect(c.series.map((s) => s.placement)).toEqual(['post', 'pre', 'admin']);
    expect(c.depths).toEqual([2, 4, 8]);
    expect(c.linear.map((p) => p.y)).toEqual([1e-3, 2e-3, 4e-3]); // O(L) through Post-LN's (2, 1e-3)
    expect(c.log[0].y).toBeCloseTo(1e-3, 12); // O(log L) through Pre-LN's (2, 1e-3)
    expect(c.log[2].y).toBeCloseTo(3e-3, 12); // ln 8 / ln 2 = 3
    expect(c.series[0].slope).toBe(1);
    expect(c.xDomain[0]).toBeLessThan(2);
    expect(c.yDomain[0]).toBeGreaterThan(0); // a log axis
  });
  it.each([
    ['no document', null, 0],
    ['no placements', { ...outputSensitivity(), placements: {} }, 0],
  ])('%s: an empty chart with a valid log domain', (_, doc, n) => {
    const c = sensitivityChart(doc as never);
    expect(c.series).toHaveLength(n);
    expect(c.yDomain[0]).toBeGreaterThan(0);
  });
  it('leaves out values a log axis cannot show, and a spread that would cross zero', () => {
    const d = outputSensitivity();
    d.placements.pre.depths[1].dlogits2 = { mean: 0, std: 0, per_seed: [0, 0] };
    d.placements.post.depths[0].dlogits2 = { mean: 1e-3, std: 2e-3, per_seed: [0, 2e-3] };
    const c = sensitivityChart(d);
    expect(c.series[1].points.map((p) => p.x)).toEqual([2, 8]);
    expect(c.series[0].points[0].lo).toBeUndefined();
    expect(c.series[0].points[0].hi).toBeCloseTo(3e-3, 12);
  });
  it('has no log guide when Pre-LN starts at L = 1 (ln 1 = 0)', () => {
    const d = outputSensitivity();
    d.placements.pre.depths[0].layers = 1;
    expect(sensitivityChart(d).log).toEqual([]);
  });
  it('exports one row per drawn value', () => {
    const t = fig5Table(outputSensitivity());
    expect(t.columns).toEqual(['placement', 'layers', 'dlogits2_mean', 'dlogits2_std', 'slope']);
    expect(t.rows).toHaveLength(9);
    expect(t.rows[0]).toEqual(['post', 2, 1e-3, 1e-4, 1]);
  });
});

describe('lib/axis logTicks', () => {
  it.each([
    [
      [3e-4, 2e-2],
      [5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2],
    ],
    [
      [1e-4, 1e-3],
      [1e-4, 2e-4, 5e-4, 1e-3],
    ],
    [
      [1.5e-3, 9e-3],
      [2e-3, 3e-3, 5e-3, 7e-3],
    ],
    [
      [1e-4, 1e-1],
      [1e-4, 1e-3, 1e-2, 1e-1],
    ],
    [
      [8e-3, 2.5],
      [1e-2, 1e-1, 1],
    ],
    [[0, 1], []],
    [[1, 1], []],
  ])('%j → %j', (d, want) => expect(logTicks(d as [number, number])).toEqual(want));
});

describe('paddedLogDomain', () => {
  it.each([
    [[6, 8, 10, 12, 14], 1.25, [6 / 1.25, 14 * 1.25]],
    [[1e-3, 3e-3, 1e-2, 3e-2], 1.6, [1e-3 / 1.6, 3e-2 * 1.6]],
    [[4], 2, [2, 8]],
  ])('%j padded by %d → %j', (xs, pad, want) => expect(paddedLogDomain(xs, pad)).toEqual(want));
});

describe('stepsTo, earlyAndEveryTenth', () => {
  it.each([
    [0, [], []],
    [3, [1, 2, 3], [1, 2, 3]],
    [12, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
  ])('%d steps', (n, all, shown) => {
    expect(stepsTo(n)).toEqual(all);
    expect(earlyAndEveryTenth(n)).toEqual(shown);
  });
  it('a 50-step run shows 1–10, 20, 30, 40, 50', () => expect(earlyAndEveryTenth(50)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 30, 40, 50]));
});

describe('evenlySpaced', () => {
  it.each([
    [0, 8, 12, []],
    [5, 8, 12, [1, 2, 3, 4, 5]],
    [12, 8, 12, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]],
    [13, 8, 12, [1, 2, 4, 6, 8, 10, 12, 13]],
    [24, 8, 12, [1, 3, 6, 9, 12, 15, 18, 21, 24]],
    [10, 10, 10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
    [11, 10, 10, [1, 2, 4, 6, 8, 10, 11]],
    [100, 10, 10, [1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]],
    [3, 1, 1, [1, 3]],
  ])('n = %i in about %i parts (all up to %i) → %j', (n, parts, all, want) => expect(evenlySpaced(n, parts, all)).toEqual(want));
  it('all defaults to parts', () => expect(evenlySpaced(10, 10)).toEqual(evenlySpaced(10, 10, 10)));
});

describe('lrTicks', () => {
  it('the lrs drawn, in their order', () => expect(lrTicks([1e-3, 3e-3, 1e-2], [1e-4, 1])).toEqual([1e-3, 3e-3, 1e-2]));
  it("none drawn: the domain's log ticks", () => expect(lrTicks([], [1e-3, 1e-1])).toEqual(logTicks([1e-3, 1e-1])));
});

describe('labelsThatFit', () => {
  // seven lrs 3e-4 … 0.3 (Figure 18), a half-decade apart: the 3× labels 40 px wide, the powers of ten 26 px
  const lrs = (gap: number) => [0, 1, 2, 3, 4, 5, 6].map((i) => i * gap);
  const lrWidths = [40, 26, 40, 26, 40, 26, 40];
  it.each([
    ['room for all', lrs(60), lrWidths, [true, true, true, true, true, true, true]],
    ['too tight for all: every other, the powers of ten (narrower) before the 3× values', lrs(36), lrWidths, [false, true, false, true, false, true, false]],
    ['too tight for every other or third: every fourth, from the first power of ten', lrs(12), lrWidths, [false, true, false, false, false, true, false]],
    ['a tie in width: the earliest start', [0, 10, 20, 30], [12, 12, 12, 12], [true, false, true, false]],
    ['one label', [5], [50], [true]],
    ['none', [], [], []],
    ['even one apart never fits: the first alone', [0, 1], [50, 50], [true, false]],
  ])('%s', (_, at, widths, want) => expect(labelsThatFit(at, widths)).toEqual(want));
});

describe('fig6 tiedChart', () => {
  it("draws the chosen variant: both placements, the 1/√L line through Pre-LN's first value, p on a positive domain", () => {
    const c = tiedChart(tiedOutput(), 'tied', 'sqrt_d');
    expect(c.series.map((s) => s.placement)).toEqual(['post', 'pre']);
    expect(c.depths).toEqual([6, 12]);
    expect(c.extrap[1].y).toBeCloseTo(1.6 * Math.SQRT1_2, 12);
    expect(c.series[1].grad[1].y).toBe(0.5);
    expect(c.series[1].p.map((q) => q.y)).toEqual([0.8, 0.3]);
    expect(c.pDomain[0]).toBeGreaterThan(0);
    expect(c.pDomain[1]).toBeLessThanOrEqual(1);
    expect(c.uniform).toBe(0.001);
    expect(c.slopes.map((s) => s.slope)).toEqual([-1.7, -0.5, -0.5, -0.5]);
  });
  it.each([
    ['untied', 'none', 1.6 * Math.SQRT1_2],
    ['tied', 'none', 1.6 * Math.SQRT1_2],
  ] as const)("%s/%s: that variant's values", (o, i, y) => {
    expect(tiedChart(tiedOutput(), o, i).series[1].grad[1].y).toBeCloseTo(y, 12);
  });
  it('an absent variant or document draws nothing but keeps the slopes it has', () => {
    const d = tiedOutput();
    d.variants = d.variants.slice(0, 1);
    expect(tiedChart(d, 'untied', 'none').series).toEqual([]);
    expect(tiedChart(d, 'untied', 'none').slopes).toHaveLength(1);
    expect(tiedChart(null, 'tied', 'sqrt_d').series).toEqual([]);
  });
  it('exports one row per variant, placement and depth', () => {
    const t = fig6Table(tiedOutput());
    expect(t.rows).toHaveLength(4 * 2 * 2);
    expect(t.rows[2]).toEqual(['tied', 'sqrt_d', 'pre', 6, 1.6, 0.16, 0.8, -1.7]);
  });
});

describe('fig7 adamChart', () => {
  it('one series per placement, per step, with the reference 1 inside the update panel', () => {
    const c = adamChart(adamFirstStep());
    expect(c.series.map((s) => s.placement)).toEqual(['post', 'pre']);
    expect(c.steps).toBe(3);
    expect(valueAt(c.series[0], 'grad', 1)).toBe(2.6);
    expect(valueAt(c.series[1], 'rms', 3)).toBe(0.27);
    expect(c.rmsDomain[1]).toBeGreaterThanOrEqual(1);
    expect(c.gradDomain[1]).toBeCloseTo(2.6 * 1.08, 12);
  });
  it('no document: an empty chart', () => expect(adamChart(null).series).toEqual([]));
  it('a run stopped early: its series is as long as its steps', () => {
    const d = adamFirstStep();
    d.runs[0] = { ...d.runs[0], status: 'nan', update_rms: [0.99], grad_norm: [2.6] };
    const c = adamChart(d);
    expect(c.series[0].rms).toHaveLength(1);
    expect(c.steps).toBe(3);
  });
  it('exports one row per placement and step', () => {
    const t = fig7Table(adamFirstStep());
    expect(t.rows).toHaveLength(6);
    expect(t.rows[0]).toEqual(['post', 1, 2.6, 0.99, 1e-3]);
  });
});

describe('fig8 escapeChart', () => {
  it('one series per placement and optimizer at the chosen lr; never-escaping runs break the line', () => {
    const lo = escapeChart(warmupLength(), 'lo');
    expect(lo.warmups).toEqual([0, 100]);
    expect(lo.series.map((s) => s.key)).toEqual(['post-adam', 'pre-adam']);
    expect(lo.series[0].lr).toBe(1e-3);
    expect(lo.series[0].points.map((p) => p.never)).toEqual([true, false]);
    expect(Number.isNaN(lo.series[0].points[0].y)).toBe(true);
    expect(lo.series[0].points[1]).toMatchObject({ x: 10, y: 190, warmup: 100 }); // √100: the axis is to scale (square root)
    expect(lo.steps).toBe(400);
    expect(lo.yDomain[1]).toBeGreaterThan(400);
    const hi = escapeChart(warmupLength(), 'hi');
    expect(hi.series[0].lr).toBe(3e-3);
    expect(hi.series[0].points.every((p) => p.never)).toBe(true);
  });
  it('no document: an empty chart', () => expect(escapeChart(null, 'lo').series).toEqual([]));
  it('exports one row per group, never as an empty cell', () => {
    const t = fig8Table(warmupLength());
    expect(t.rows).toHaveLength(8);
    expect(t.rows[0]).toEqual(['post', 'adam', 0, 1e-3, null, 2]);
  });
});

describe('fig9 sharePanels', () => {
  it('one panel per run; a cell per recording and layer', () => {
    const ps = sharePanels(plateauShare());
    expect(ps.map((p) => `${p.placement}:${p.warmup}`)).toEqual(['post:0', 'pre:0']);
    expect(ps[0].layers).toBe(2);
    expect(ps[0].cells).toHaveLength(6);
    expect(cellAt(ps[0], 1, 2)?.v).toBe(0.01);
    expect(ps[1].endLoss).toBe(2);
    expect(sharePanels(null)).toEqual([]);
  });
  it.each([
    [0, []],
    [3, [0, 1, 2]],
    [51, [0, 13, 25, 38, 50]],
  ])('recordingTicks(%i) → %j', (n, want) => expect(recordingTicks(n)).toEqual(want));
  it('exports one row per cell', () => {
    const t = fig9Table(plateauShare());
    expect(t.rows).toHaveLength(12);
    expect(t.rows[3]).toEqual(['post', 0, 10, 2, 0.01]);
  });
});

describe('fig10 stepSizeChart', () => {
  it('η* and the mean one-layer effect per placement and depth, on log domains from the η grid', () => {
    const c = stepSizeChart(stepSize());
    expect(c.series.map((s) => s.placement)).toEqual(['post', 'pre']);
    expect(c.depths).toEqual([2, 8]);
    expect(ssAt(c.series[1], 'eta', 8)?.y).toBe(0.005);
    expect(ssAt(c.series[0], 'perLayer', 8)?.y).toBeCloseTo(0.12, 12);
    expect(c.etaDomain[0]).toBeCloseTo(1e-4 / 1.5, 12);
    expect(c.etaDomain[1]).toBeCloseTo(3e-2 * 1.5, 12);
    expect(stepSizeChart(null).series).toEqual([]);
  });
  it('exports one row per placement and depth', () => {
    const t = fig10Table(stepSize());
    expect(t.rows).toHaveLength(4);
    expect(t.rows[3]).toEqual(['pre', 8, 0.005, 0.005, 0.005, 0.005, 6, expect.closeTo(0.024, 12)]);
  });
});

describe('fig11 depthFactorsChart', () => {
  it('W² per layer for every placement, Appendix F and the factors for the chosen one', () => {
    const c = depthFactorsChart(depthFactors(), 'post');
    expect(c.L).toBe(3);
    expect(c.layers).toEqual([1, 2, 3]);
    expect(c.placements).toEqual(['post', 'pre']);
    expect(c.placement).toBe('post');
    expect(c.grad.map((s) => s.placement)).toEqual(['post', 'pre']);
    expect(dfAt(c.grad[1].grad, 1)).toMatchObject({ y: 2, lo: expect.closeTo(1.9, 12), hi: expect.closeTo(2.1, 12) });
    expect(dfAt(c.appendixF, 1)?.y).toBeCloseTo(2 / 3, 12);
    // a layer's norm factor is its two sublayers' product, likewise the residual one
    expect(dfAt(c.factors.norm, 2)?.y).toBeCloseTo(0.72, 12);
    expect(dfAt(c.factors.residual, 2)?.y).toBeCloseTo(1.375, 12);
    expect(dfAt(c.factors.layer, 3)?.y).toBe(0.99);
    // the factor axis holds 1, √(2/3) and every factor
    expect(c.factorDomain[0]).toBeLessThan(0.72);
    expect(c.factorDomain[1]).toBeGreaterThan(1.375);
    expect(c.gradDomain[0]).toBeLessThan(2 / 3);
  });
  it('falls back to the first measured placement, and is empty without a document', () => {
    expect(depthFactorsChart(depthFactors(), 'admin').placement).toBe('post');
    expect(depthFactorsChart(depthFactors(), 'pre').factors.norm.map((p) => p.y)).toEqual([1, 1, 1]);
    expect(depthFactorsChart(null, 'post').layers).toEqual([]);
  });
  it.each([
    [3, [1, 2, 3]],
    [12, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]],
    [24, [1, 3, 6, 9, 12, 15, 18, 21, 24]],
  ])('layer ticks at L = %i', (L, ticks) => expect(layerTicks(L)).toEqual(ticks));
  it('exports one row per placement and layer', () => {
    const t = fig11Table(depthFactors());
    expect(t.rows).toHaveLength(6);
    expect(t.rows[1]).toEqual(['post', 2, 1.1, 0.55, expect.closeTo(Math.sqrt(2 / 3), 12), expect.closeTo(0.72, 12), expect.closeTo(1.375, 12), 0.99]);
  });
});

// ---- issue 27 (3): the reference stays drawn, muted, on axes that fit it and the reader's run ----

describe('components/common/chart domains over several documents', () => {
  it.each([
    ['finite values', [3, 1, 2], false, [1, 3]],
    ['NaN and infinities skipped', [NaN, 2, Infinity, -1], false, [-1, 2]],
    ['a log axis keeps the positive values', [0, -2, 1e-3, 0.5], true, [1e-3, 0.5]],
    ['nothing finite', [NaN], false, null],
    ['nothing positive on a log axis', [0, -1], true, null],
  ] as const)('extentOf: %s', (_, values, log, want) => expect(extentOf(values, log)).toEqual(want));
  it.each([
    [
      'two domains',
      [
        [2, 4],
        [6, 14],
      ],
      false,
      [2, 14],
    ],
    [
      'one inside the other',
      [
        [0, 10],
        [2, 3],
      ],
      false,
      [0, 10],
    ],
    ['null ones skipped', [[1, 2], null, undefined], false, [1, 2]],
    [
      'a log axis skips non-positive bounds',
      [
        [1e-3, 1],
        [0, 5],
      ],
      true,
      [1e-3, 1],
    ],
    ['none left: the fallback', [null, [3, 1]], false, [7, 8]],
  ] as const)('unionDomain: %s', (_, domains, log, want) => expect(unionDomain(domains as never, { log, fallback: [7, 8] })).toEqual(want));
  it('unionDomain without a fallback gives [0, 1] when nothing is valid', () => expect(unionDomain([])).toEqual([0, 1]));
  it.each<[(number[] | null)[], number[]]>([
    [
      [
        [2, 4],
        [6, 8, 10, 12, 14],
      ],
      [2, 4, 6, 8, 10, 12, 14],
    ],
    [
      [
        [0, 100],
        [0, 50, 100, 300],
      ],
      [0, 50, 100, 300],
    ],
    [
      [[6, 2], null, [NaN, 4]],
      [2, 4, 6],
    ],
  ])('unionValues %j → %j', (lists, want) => expect(unionValues(...lists)).toEqual(want));
});

/** An output-sensitivity document measured at `depths`, every value `k`×L·10⁻³. */
function sensAt(depths: number[], k = 1) {
  const d = outputSensitivity();
  for (const p of Object.values(d.placements))
    p.depths = depths.map((layers) => ({ layers, dlogits2: { mean: k * layers * 1e-3, std: 0, per_seed: [k * layers * 1e-3] } }));
  return d;
}

describe('fig5 sensitivityAxes (the reference under a live run)', () => {
  it('a live run at depths 2, 4 over a reference at 6…14: the axis covers 2…14 and names every depth', () => {
    const live = sensitivityChart(sensAt([2, 4]));
    const ref = sensitivityChart(sensAt([6, 8, 10, 12, 14]));
    const a = sensitivityAxes(live, ref);
    expect(a.depths).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(a.xDomain[0]).toBeLessThanOrEqual(2);
    expect(a.xDomain[1]).toBeGreaterThanOrEqual(14);
    expect(a.xDomain).toEqual([2 / 1.25, 14 * 1.25]);
    // the reference's largest value (14e-3) fits, and the live run's smallest (2e-3) still does
    expect(a.yDomain[1]).toBeGreaterThanOrEqual(14e-3);
    expect(a.yDomain[0]).toBeLessThanOrEqual(2e-3);
    expect(a.yDomain[0]).toBeGreaterThan(0);
  });
  it.each([
    ['no reference', null],
    ['an empty reference', sensitivityChart(null)],
  ])("%s: the live chart's own axes, unchanged", (_, ref) => {
    const live = sensitivityChart(sensAt([2, 4]));
    expect(sensitivityAxes(live, ref)).toEqual({ depths: live.depths, xDomain: live.xDomain, yDomain: live.yDomain });
  });
  it('a reference inside the live run changes nothing', () => {
    const live = sensitivityChart(sensAt([2, 4, 8, 16]));
    const a = sensitivityAxes(live, sensitivityChart(sensAt([4, 8])));
    expect(a).toEqual({ depths: live.depths, xDomain: live.xDomain, yDomain: live.yDomain });
  });
});

/** A step-size document at `depths`, η* 0.01 and a one-layer effect of `k`·L. */
function stepSizeAt(depths: number[], k = 0.01, etas = [1e-4, 1e-3, 3e-2]) {
  const d = stepSize();
  const st = (mean: number) => ({ mean, std: 0, per_seed: [mean] });
  const cell = (layers: number) => ({
    layers,
    loss0: st(6),
    loss: [st(6)],
    eta_star: st(0.01),
    eta_star_of_mean: 0.01,
    eta_near_best: [0.01, 0.01],
    eta_max_useful: 0.01,
    per_seed: [{ eta_near_best: [0.01, 0.01], eta_max_useful: 0.01 }],
    layer_dlogits2: Array.from({ length: layers }, () => st(k * layers)),
  });
  d.placements = { post: depths.map(cell), pre: depths.map(cell) };
  d.config = { ...d.config, depths, etas };
  return d;
}

describe('fig10 stepSizeAxes (the reference under a live run)', () => {
  it("depths and both panels' domains hold the live run and the reference", () => {
    const live = stepSizeChart(stepSizeAt([2, 4], 0.01, [1e-3, 1e-2]));
    const ref = stepSizeChart(stepSizeAt([6, 8, 10, 12, 14], 0.01, [1e-4, 3e-2]));
    const a = stepSizeAxes(live, ref);
    expect(a.depths).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(a.xDomain).toEqual([2 / 1.25, 14 * 1.25]);
    expect(a.etaDomain).toEqual([1e-4 / 1.5, 3e-2 * 1.5]);
    expect(a.layerDomain[0]).toBeCloseTo(0.02 / 1.5, 12);
    expect(a.layerDomain[1]).toBeCloseTo(0.14 * 1.5, 12);
  });
  it("no reference: the live chart's own axes", () => {
    const c = stepSizeChart(stepSize());
    expect(stepSizeAxes(c, null)).toEqual({ depths: [2, 8], xDomain: [2 / 1.25, 8 * 1.25], etaDomain: c.etaDomain, layerDomain: c.layerDomain });
  });
});

describe('fig7 adamAxes (the reference under a live run)', () => {
  it('a 3-step live run over a 10-step reference: the step axis runs to 10, the values of both fit', () => {
    const live = adamChart(adamFirstStep());
    const r = adamFirstStep();
    const steps = (n: number, v: number) => Array.from({ length: n }, () => v);
    r.runs[0] = { ...r.runs[0], grad_norm: steps(10, 5), update_rms: steps(10, 2) };
    const a = adamAxes(live, adamChart(r));
    expect(a.xDomain).toEqual([1, 10]);
    expect(a.gradDomain).toEqual([0, 5 * 1.08]);
    expect(a.rmsDomain).toEqual([0, 2 * 1.05]);
  });
  it("no reference: the live chart's own axes", () => {
    const c = adamChart(adamFirstStep());
    expect(adamAxes(c, null)).toEqual({ xDomain: [1, 3], gradDomain: c.gradDomain, rmsDomain: c.rmsDomain });
    expect(adamAxes(c, adamChart(null))).toEqual(adamAxes(c, null));
  });
});

describe('fig3 axes with the reference muted under a live probe', () => {
  it("(a)(b): a 3-layer live probe over a 6-layer reference gets layers 1…6 and the reference's values", () => {
    const live = panelA(probe(), 'W2_per_batch');
    const r = probe();
    r.placements.pre!.W2_per_batch = { mean: [9, 8, 7, 6, 5, 4], std: [1, 1, 1, 1, 1, 1] };
    const ref = panelA(r, 'W2_per_batch').series;
    const a = layerAxes(live, ref);
    expect(a.ticks).toEqual([1, 2, 3, 4, 5, 6]);
    expect(a.xDomain).toEqual([0.5, 6.5]);
    expect(a.yDomain).toEqual([0, 9 * 1.08]); // the reference's 9 (its ± std is not drawn)
  });
  it("(a)(b): no reference: layers 1…L and the panel's own y", () => {
    const b = panelB(probe());
    expect(layerAxes(b, null)).toEqual({ ticks: [1, 2, 3], xDomain: [0.5, 3.5], yDomain: b.yDomain });
  });
  it('(c): live depths 2, 4 over reference depths 6…14: the axis covers 2…14 and names every depth', () => {
    const r = probe();
    const at = (m: number) => ({ W2_per_layer: { mean: m / 2, std: 0 }, W2_per_batch: { mean: m, std: 0 } });
    const live = probe();
    for (const p of [live.placements.post!, live.placements.pre!]) p.lastW2_vs_L = { '2': at(3), '4': at(2) };
    live.config = { ...live.config, depths: [2, 4] };
    for (const p of [r.placements.post!, r.placements.pre!]) p.lastW2_vs_L = Object.fromEntries([6, 8, 10, 12, 14].map((L) => [String(L), at(1)]));
    r.config = { ...r.config, depths: [6, 8, 10, 12, 14] };
    const c = panelC(live);
    expect(c.depths).toEqual([2, 4]);
    const a = depthAxes(c, panelC(r).batch);
    expect(a.ticks).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(a.xDomain).toEqual([1, 15]);
    expect(a.yDomain).toEqual(c.yDomain); // the reference's values lie inside the live run's
  });
  it("(c): no reference: the panel's own axes", () => {
    const c = panelC(probe());
    expect(depthAxes(c, null)).toEqual({ ticks: c.depths, xDomain: c.xDomain, yDomain: c.yDomain });
  });
});

describe('fig6 tiedAxes (the reference under a live run)', () => {
  it('depths and domains hold the live run and the reference of the same variant', () => {
    const live = tiedChart(tiedOutput(), 'tied', 'sqrt_d');
    const r = tiedOutput();
    for (const v of r.variants)
      for (const p of Object.values(v.placements))
        p.depths = [14, 24].map((layers) => ({
          layers,
          W2_per_batch: { mean: 3, std: 0.3 },
          W2_per_layer: { mean: 1, std: 0 },
          p_current: { mean: 1e-5, std: 0, per_seed: [1e-5] },
        }));
    const a = tiedAxes(live, tiedChart(r, 'tied', 'sqrt_d'));
    expect(a.depths).toEqual([6, 12, 14, 24]);
    expect(a.xDomain).toEqual([5, 25]);
    expect(a.gradDomain).toEqual([0, 3 * 1.08]); // the reference's 3 (not its spread)
    expect(a.pDomain[0]).toBeCloseTo(1e-5 / 1.5, 15);
    expect(a.pDomain[1]).toBe(live.pDomain[1]);
  });
  it("no reference: the live chart's own axes", () => {
    const c = tiedChart(tiedOutput(), 'tied', 'sqrt_d');
    expect(tiedAxes(c, null)).toEqual({ depths: [6, 12], xDomain: [5, 13], gradDomain: c.gradDomain, pDomain: c.pDomain });
  });
});

describe('fig11 depthFactorsReference (the reference under a live run)', () => {
  /** a depth-factors document at L layers, flat W² gradients `g`, every layer factor `f` */
  function factorsAt(L: number, g: number, f: number) {
    const d = depthFactors();
    const st = (mean: number) => ({ mean, std: 0, per_seed: [mean] });
    const layer = (l: number) => ({
      layer: l,
      attention: { norm_factor: st(1), residual_factor: st(f), factor: st(f) },
      ffn: { norm_factor: st(1), residual_factor: st(1), factor: st(1) },
      layer_factor: st(f),
    });
    for (const p of Object.values(d.placements)) {
      p.W2_per_batch = { mean: Array(L).fill(g), std: Array(L).fill(0) };
      p.appendix_f_W2_per_batch = Array(L).fill(g);
      p.factors = Array.from({ length: L }, (_, i) => layer(i + 1));
    }
    d.layers = L;
    return d;
  }
  it("a 3-layer live run over a 24-layer reference: layers 1…24, both runs' values, the reference's lines", () => {
    const live = depthFactorsChart(depthFactors(), 'post');
    const ref = depthFactorsChart(factorsAt(24, 20, 2), 'post');
    const r = depthFactorsReference(live, ref);
    expect(r.L).toBe(24);
    expect(r.xDomain).toEqual([0.5, 24.5]);
    expect(r.layerTicks).toEqual(layerTicks(24));
    expect(r.grad.map((s) => s.placement)).toEqual(['post', 'pre']);
    expect(r.factors.layer).toHaveLength(24);
    expect(r.gradDomain).toEqual([live.gradDomain[0], 20 * 1.5]);
    expect(r.factorDomain).toEqual([live.factorDomain[0], 2 * 1.06]);
  });
  it("the reference's factors only for the placement the live chart draws", () => {
    const live = depthFactorsChart(depthFactors(), 'pre');
    const ref = depthFactorsChart(factorsAt(3, 1, 1), 'post');
    expect(depthFactorsReference(live, ref).factors).toEqual({ norm: [], residual: [], layer: [] });
  });
  it("no reference: nothing drawn, the live chart's own axes", () => {
    const c = depthFactorsChart(depthFactors(), 'post');
    expect(depthFactorsReference(c, null)).toEqual({
      grad: [],
      factors: { norm: [], residual: [], layer: [] },
      L: 3,
      layerTicks: [1, 2, 3],
      xDomain: [0.5, 3.5],
      gradDomain: c.gradDomain,
      factorDomain: c.factorDomain,
    });
  });
});

describe('fig8 escapeView (the reference under a live run)', () => {
  /** warm-ups `ws`, `steps` long: Pre-LN escapes at 50 + w, Post-LN never without warm-up */
  function escapeAt(ws: number[], steps: number) {
    const d = warmupLength();
    d.config = { ...d.config, steps };
    d.groups = ws.flatMap((w) => [
      { placement: 'post', optimizer: 'adam', warmup: w, lr: 1e-3, seeds_ok: 1, escape_step: w ? 100 + w : null },
      { placement: 'pre', optimizer: 'adam', warmup: w, lr: 1e-3, seeds_ok: 1, escape_step: 50 + w },
    ]);
    return d;
  }
  it("the warm-up axis is the union of both documents' warm-ups, to scale (√); each series sits at its warm-up", () => {
    const live = escapeChart(escapeAt([0, 50], 200), 'lo');
    const ref = escapeChart(escapeAt([0, 100, 300], 400), 'lo');
    const v = escapeView(live, ref);
    expect(v.warmups).toEqual([0, 50, 100, 300]);
    expect(v.xs).toEqual([0, Math.sqrt(50)]);
    expect(v.series[1].points.map((p) => [p.x, p.warmup])).toEqual([
      [0, 0],
      [Math.sqrt(50), 50],
    ]);
    expect(v.ref[1].points.map((p) => [p.x, p.warmup])).toEqual([
      [0, 0],
      [10, 100],
      [Math.sqrt(300), 300],
    ]);
    expect(v.refSteps).toBe(400);
    const pad = 0.04 * Math.sqrt(300);
    expect(v.xDomain[0]).toBeCloseTo(-0.5 < -pad ? -0.5 : -pad, 12);
    expect(v.xDomain[1]).toBeCloseTo(Math.sqrt(300) + Math.max(0.5, pad), 12);
    expect(v.yDomain).toEqual([0, 400 * 1.08]);
    expect(escAt(v.series[1], Math.sqrt(50))?.y).toBe(100);
    expect(escAt(v.series[1], 10)).toBeUndefined();
  });
  it.each([
    [
      [0, 25, 50, 100, 300],
      [0, 5, 7.07, 10, 17.32],
    ],
    [
      [0, 100],
      [0, 10],
    ],
  ])('warm-ups %j sit at √: %j (distances to scale, not equal steps)', (ws, xs) => {
    expect(ws.map(warmupX).map((x) => +x.toFixed(2))).toEqual(xs);
  });
  it.each([
    ['no reference', null],
    ['an empty reference', escapeChart(null, 'lo')],
  ])('%s: the live chart as it is', (_, ref) => {
    const c = escapeChart(warmupLength(), 'lo');
    expect(escapeView(c, ref)).toEqual({ warmups: c.warmups, series: c.series, ref: [], refSteps: null, xs: [0, 10], xDomain: c.xDomain, yDomain: c.yDomain });
  });
});

describe("fig9 the reference's heat maps (a muted row of their own)", () => {
  it('one panel per run of the reference; none without one', () => {
    expect(referencePanels(plateauShare()).map((p) => `${p.placement}:${p.warmup}`)).toEqual(['post:0', 'pre:0']);
    expect(referencePanels(null)).toEqual([]);
  });
  it.each([
    [2, [1, 2]],
    [5, [1, 2, 4, 5]],
    [6, [1, 2, 4, 6]],
  ])('layer ticks at %i layers: %j', (L, want) => expect(shareLayerTicks(L)).toEqual(want));
});

describe('fig2 stacks on one width scale', () => {
  it("the live stack and the reference's share the widest slab of both", () => {
    const live = probe(); // Pre-LN ‖x‖²/d 2, 3, 4
    const ref = probe();
    ref.placements.pre!.norm2_over_d = { mean: [4, 9, 16, 16], std: [0, 0, 0, 0] };
    const s = buildStack(live, ref);
    expect(s.slabs[2].widthFrac).toBeCloseTo(Math.sqrt(4) / 4, 12); // the reference's 16 is the widest
    const r = buildStack(ref, live);
    expect(r.L).toBe(4);
    expect(r.slabs[3].widthFrac).toBeCloseTo(1, 12);
    expect(r.slabs[1].widthFrac).toBeCloseTo(3 / 4, 12);
  });
  it("without the other document (or without its Pre-LN): the stack's own scale, unchanged", () => {
    expect(buildStack(probe(), null)).toEqual(buildStack(probe()));
    const noPre = probe();
    delete noPre.placements.pre;
    expect(buildStack(probe(), noPre)).toEqual(buildStack(probe()));
  });
});

describe('fig12 sharpnessChart', () => {
  it('one panel per placement and warm-up, one series per optimizer and seed, the threshold at the measured steps', () => {
    const c = sharpnessChart(sharpness());
    expect(c.panels.map((p) => p.key)).toEqual(['post-0', 'post-10', 'pre-0', 'pre-10']);
    expect(c.panels[0].series.map((s) => s.key)).toEqual(['adam-0', 'gi-adam-0']);
    expect(c.steps).toEqual([1, 5, 10, 15]);
    expect(c.length).toBe(15);
    // 38/η: η = 1e-3 without warm-up; t/10 of it over a 10-step warm-up
    expect(c.panels[0].threshold.map((p) => p.y)).toEqual([38e3, 38e3, 38e3, 38e3].map((x) => expect.closeTo(x, 6)));
    expect(c.panels[1].threshold[0].y).toBeCloseTo(38e4, 6);
    expect(shAt(c.panels[0].series[0], 1)).toEqual({ lambda: 3.8e5, ratio: 10 });
    expect(shAt(c.panels[1].series[0], 1)?.ratio).toBeCloseTo(1, 12);
    expect(shAt(c.panels[0].series[0], 7)).toBeUndefined();
    // the log domain holds every value and threshold, padded by 1.5×
    expect(c.yDomain[0]).toBeCloseTo(1e3 / 1.5, 9);
    expect(c.yDomain[1]).toBeCloseTo(3.8e5 * 1.5, 6);
  });
  it('an estimate ≤ 0 breaks its line (log axis) but keeps its ratio; no document: no panels', () => {
    const d = sharpness();
    d.runs[0].sharpness[1] = -5;
    const s = sharpnessChart(d).panels[0].series[0];
    expect(Number.isNaN(s.points[1].y)).toBe(true);
    expect(s.ratio[1].y).toBeCloseTo(-5 / 38e3, 12);
    expect(sharpnessChart(null).panels).toEqual([]);
  });
  it("a reference under a live run: its panels by key, the axes holding both documents' values and lengths", () => {
    const live = sharpnessChart(sharpness());
    const d = sharpness();
    d.config = { ...d.config, steps: 30 };
    d.runs = d.runs.filter((r) => r.placement === 'post').map((r) => ({ ...r, sharpness: r.sharpness.map((x) => 10 * x) }));
    const ref = sharpnessChart(d);
    const a = sharpnessAxes(live, ref);
    expect(a.xDomain).toEqual([0, 30]);
    expect(a.yDomain[1]).toBeCloseTo(3.8e6 * 1.5, 3);
    expect(a.refPanel('post-0')?.series[0].points[0].y).toBe(3.8e6);
    expect(a.refPanel('pre-0')).toBeUndefined();
    expect(sharpnessAxes(live, null)).toMatchObject({ xDomain: [0, 15], yDomain: live.yDomain });
  });
  it('exports one row per run and measured step, with the ratio; the JSON holds the loss curves', () => {
    const t = fig12Table(sharpness());
    expect(t.rows).toHaveLength(8 * 4);
    expect(t.rows[0]).toEqual(
      ['post', 'adam', 0, 0, 1, 3.8e5, 38000.00000000001, 9.999999999999998, 0.001, 12, 1, 1e-7].map((x) =>
        typeof x === 'number' && x > 1e-6 ? expect.closeTo(x, 6) : x,
      ),
    );
    expect(fig12Json(sharpness()).losses).toHaveLength(8);
    expect(fig12Table(null).rows).toEqual([]);
  });
});

describe('fig17 cfChart (adam-first-step counterfactuals)', () => {
  it('one panel per placement (registry order, then a spec’s), one series per optimizer', () => {
    const c = cfChart(adamFirstStepCf());
    expect(c.panels.map((p) => p.placement)).toEqual(['post', 'pre', 'rezero']);
    expect(c.panels[0].series.map((s) => s.key)).toEqual(['post-adam', 'post-gi-adam']);
    expect(c.steps).toBe(3);
    expect(c.giLevel).toBeCloseTo(Math.sqrt(0.02), 12);
    expect(c.yDomain).toEqual([0, 1.05]);
  });
  it('the gradient-free tensors’ series exists only where some tensor has no gradient at step 1', () => {
    const c = cfChart(adamFirstStepCf());
    expect(c.panels[1].series[0].zero).toBeNull();
    const z = c.panels[2].series[0];
    expect(z.zero?.map((p) => p.y)).toEqual([0, 0.7, 0.6]);
    expect(cfAt(z, 1)).toEqual({ all: 0.3, zero: 0 });
    expect(cfAt(c.panels[0].series[0], 1)).toEqual({ all: 1, zero: undefined });
  });
  it.each([
    // [tensors, per-step RMS]: sizes weigh the tensors; the shortest series sets the length
    [
      [
        { size: 1, s: [3, 1] },
        { size: 3, s: [1, 1] },
      ],
      [Math.sqrt(12 / 4), 1],
    ],
    [
      [
        { size: 2, s: [0.5] },
        { size: 2, s: [0.5, 9] },
      ],
      [0.5],
    ],
    [[], []],
  ])('groupRms (%#)', (ts, want) => {
    const got = groupRms(ts.map((t, i) => ({ name: `t${i}`, size: t.size, grad_rms1: 0, zero_grad_share1: 1, step_over_lr: t.s })));
    expect(got).toHaveLength(want.length);
    got.forEach((v, i) => expect(v).toBeCloseTo(want[i], 12));
  });
  it('no document, or no runs: an empty chart', () => {
    expect(cfChart(null).panels).toEqual([]);
    expect(cfChart({ ...adamFirstStepCf(), runs: [] }).steps).toBe(0);
  });
  it('β2 from the document sets GI-Adam’s level', () => {
    expect(cfChart({ ...adamFirstStepCf(), config: { beta2: 0.99 } }).giLevel).toBeCloseTo(0.1, 12);
  });
  it('axes: a live run over the reference spans both; the reference’s panel of a placement is found', () => {
    const live = cfChart(adamFirstStepCf());
    const r = adamFirstStepCf();
    r.runs[0] = { ...r.runs[0], update_rms: [1, 2, 2, 2, 2] };
    const ref = cfChart(r);
    const a = cfAxes(live, ref);
    expect(a.xDomain).toEqual([1, 5]);
    expect(a.yDomain[1]).toBeCloseTo(2 * 1.05, 12);
    expect(a.refPanel('rezero')?.placement).toBe('rezero');
    expect(cfAxes(live, live).refPanel('pre')).toBeUndefined();
    expect(cfAxes(live, null).xDomain).toEqual([1, 3]);
  });
});

describe('fig17 downloads', () => {
  it('one row per run and tensor, with the step-1 gradient and steps 1–2', () => {
    const t = fig17Table(adamFirstStepCf());
    expect(t.columns).toEqual([
      'placement',
      'optimizer',
      'tensor',
      'size',
      'grad_rms_step1',
      'zero_grad_share_step1',
      'update_rms_over_lr_step1',
      'update_rms_over_lr_step2',
    ]);
    expect(t.rows).toHaveLength(2 * 2 + 2 * 2 + 2 * 3);
    expect(t.rows.find((r) => r[0] === 'rezero' && r[1] === 'adam' && r[2] === 'layer1.W1')).toEqual(['rezero', 'adam', 'layer1.W1', 90, 0, 1, 0, 0.7]);
    expect(fig17Table(null).rows).toEqual([]);
  });
  it('the JSON: each run’s update RMS / lr per step, with the config', () => {
    const j = fig17Json(adamFirstStepCf());
    expect(j.runs).toHaveLength(6);
    expect(j.runs[4]).toEqual({ placement: 'rezero', optimizer: 'adam', status: 'ok', update_rms_over_lr: [0.3, 0.7, 0.6] });
    expect(fig17Json(null)).toEqual({ config: null, engine: null, runs: [] });
  });
});

// ---- the phase-diagram figures (fixtures.ts phaseDiagram: depths 2, 8 × lrs 1e-3, 1e-2 × warm-ups 0, 100 × seeds 0, 1) ----
describe('fig15 the trainability map', () => {
  it("one placement's cells: columns the lrs, rows the depths, a panel per warm-up", () => {
    const c = phaseMap(phaseDiagram(), 'post');
    expect(c).toMatchObject({ placement: 'post', warmups: [0, 100], depths: [2, 8], lrs: [1e-3, 1e-2] });
    const v = mapView(c, null);
    expect(v.panels.map((p) => p.warmup)).toEqual([0, 100]);
    expect(v.xDomain).toEqual([-0.5, 1.5]);
    expect(v.yDomain).toEqual([-0.5, 1.5]);
    const at = (w: number, L: number, lr: number) => mapCellAt(v, w, L, lr);
    expect(at(0, 2, 1e-3)).toMatchObject({ x: 0, y: 0, ref: false });
    expect(at(0, 8, 1e-2)).toMatchObject({ x: 1, y: 1 });
    expect(at(0, 8, 1e-2)?.cell.outcome).toBe('plateau');
    expect(at(100, 8, 1e-2)?.cell.outcome).toBe('mixed'); // one seed trained, one did not
    expect(at(0, 4, 1e-3)).toBeUndefined();
  });
  it('a placement the document lacks draws its first; no document, nothing', () => {
    expect(phaseMap(phaseDiagram(['pre']), 'post').placement).toBe('pre');
    expect(phaseMap(null, 'post')).toMatchObject({ placement: null, cells: [] });
    // strict: a live run without the placement draws none of its cells (the reference's map shows, muted)
    expect(phaseMap(phaseDiagram(['pre']), 'post', true)).toMatchObject({ placement: 'post', cells: [] });
    const v = mapView(phaseMap(phaseDiagram(['pre']), 'post', true), phaseMap(phaseDiagram(), 'post'));
    expect(v.panels[0].cells.every((m) => m.ref)).toBe(true);
    expect(mapView(phaseMap(null, 'post'), null).panels).toEqual([]);
  });
  it("a live cell over the reference's map: the reference fills the rest, muted, on axes that hold both", () => {
    const ref = phaseMap(phaseDiagram(), 'post');
    const one = phaseDiagram();
    one.cells = one.cells.filter((c) => c.placement === 'post' && c.warmup === 0 && c.layers === 8 && c.lr === 1e-3);
    one.cells[0] = { ...one.cells[0], layers: 16 };
    const v = mapView(phaseMap(one, 'post'), ref);
    expect(v.depths).toEqual([2, 8, 16]);
    const live = v.panels[0].cells.filter((m) => !m.ref);
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ x: 0, y: 2 });
    expect(v.panels[0].cells.filter((m) => m.ref)).toHaveLength(4); // the reference's four cells at warm-up 0
    // the live cell replaces the reference's at the same place
    const same = phaseDiagram();
    same.cells = same.cells.filter((c) => c.placement === 'post' && c.warmup === 0 && c.layers === 8 && c.lr === 1e-3);
    const w = mapView(phaseMap(same, 'post'), ref);
    expect(w.panels[0].cells.filter((m) => m.ref)).toHaveLength(3);
    expect(mapCellAt(w, 0, 8, 1e-3)?.ref).toBe(false);
  });
  it.each([
    ['ArrowRight', { warmup: 0, layers: 2, lr: 1e-2 }],
    ['ArrowUp', { warmup: 0, layers: 8, lr: 1e-3 }],
    ['ArrowLeft', { warmup: 0, layers: 2, lr: 1e-3 }], // at the edge: stays
    ['ArrowDown', { warmup: 0, layers: 2, lr: 1e-3 }],
    ['Enter', null],
  ])('stepPick %s', (key, want) => {
    const v = mapView(phaseMap(phaseDiagram(), 'post'), null);
    expect(stepPick(v, { warmup: 0, layers: 2, lr: 1e-3 }, key)).toEqual(want);
  });
  it('the pointer picks the nearest cell; the first pick is the first panel’s deepest row, lowest lr', () => {
    const v = mapView(phaseMap(phaseDiagram(), 'post'), null);
    expect(pickAt(v, 100, 0.8, -0.3)).toEqual({ warmup: 100, lr: 1e-2, layers: 2 });
    expect(pickAt(v, 100, 9, 9)).toEqual({ warmup: 100, lr: 1e-2, layers: 8 });
    expect(firstPick(v)).toEqual({ warmup: 0, layers: 8, lr: 1e-3 });
  });
  it("the selected cell's curves: one per seed at the buckets' last steps, the reference's muted under a live one", () => {
    const d = phaseDiagram();
    const cell = d.cells.find((c) => c.placement === 'post' && c.warmup === 0 && c.layers === 8)!;
    const k = cellCurves(cell, null, 300, [5.36, 1.39], 7.5);
    expect(k.runs.map((s) => s.seed)).toEqual([0, 1]);
    expect(k.runs[0].points).toHaveLength(100);
    expect(k.runs[0].points[0]).toEqual({ x: 3, y: 5.4 }); // every 3 steps
    expect(k.runs[0].points.at(-1)?.x).toBe(300);
    expect(k.ref).toEqual([]);
    expect(k.xDomain).toEqual([0, 300]);
    expect(k.yDomain[0]).toBeLessThanOrEqual(1.39);
    expect(k.yDomain[1]).toBeGreaterThanOrEqual(5.4);
    const other = d.cells.find((c) => c.placement === 'pre' && c.warmup === 0 && c.layers === 8)!;
    expect(cellCurves(cell, other, 300, [], 7.5).ref).toHaveLength(2);
    // a diverged run recorded one step fewer than its stop step
    const blown = d.cells.find((c) => c.placement === 'deepnorm' && c.warmup === 0 && c.layers === 8 && c.lr === 1e-2)!;
    expect(cellCurves(blown, null, 300, [], 7.5).runs[0].points.map((p) => p.x)).toEqual([1, 2]);
  });
  it('recomputing a cell narrows the drawn config to it, seeds kept; a spec stays only for its own placement', () => {
    const c = { steps: 300, seeds: [0, 1], depths: [2, 8], lrs: [1e-3], warmups: [0, 100], placements: ['post', 'mine'], placement_spec: { name: 'mine' } };
    expect(cellConfig(c, { placement: 'post', warmup: 100, layers: 8, lr: 1e-3 })).toEqual({
      steps: 300,
      seeds: [0, 1],
      depths: [8],
      lrs: [1e-3],
      warmups: [100],
      placements: ['post'],
    });
    expect(cellConfig(c, { placement: 'mine', warmup: 0, layers: 2, lr: 1e-3 })).toMatchObject({ placements: ['mine'], placement_spec: { name: 'mine' } });
    expect(cellConfig(null, { placement: 'pre', warmup: 0, layers: 2, lr: 1e-3 })).toEqual({ placements: ['pre'], warmups: [0], depths: [2], lrs: [1e-3] });
  });
  it('exports one row per run, with its cell’s outcome', () => {
    const t = fig15Table(phaseDiagram());
    expect(t.rows).toHaveLength(3 * 2 * 2 * 2 * 2);
    expect(t.columns).toEqual(['placement', 'warmup', 'layers', 'lr', 'seed', 'outcome', 'stopped', 'escape_step', 'stop_step', 'final_loss', 'cell_outcome']);
    expect(t.rows[0]).toEqual(['post', 0, 2, 1e-3, 0, 'trained', 'settled', 60, 110, 3, 'trained']);
    expect(fig15Table(null).rows).toEqual([]);
  });
});

describe("cellRuns: a phase cell's runs as Figures 13–15 say them", () => {
  const run = (seed: number, escape_step: number | null, final_loss: number | null): PhaseCell['runs'][number] => ({
    seed,
    every: 1,
    stop_step: 100,
    curve: [],
    outcome: escape_step == null ? 'plateau' : 'trained',
    stopped: 'end',
    escape_step,
    final_loss,
  });
  const cell = (runs: PhaseCell['runs']) => ({ runs }) as PhaseCell;
  it.each([
    [[run(0, 12, 1.2345), run(1, 1500, 0.5)], { escape: '12 · 1500', loss: '1.23 · 0.50' }],
    [[run(0, null, null), run(1, 40, 2)], { escape: 'never · 40', loss: '— · 2.00' }],
    [[], { escape: '', loss: '' }],
  ])('%#', (runs, want) => expect(cellRuns(cell(runs), 'never')).toEqual(want));
});

describe('the phase-diagram document helpers', () => {
  it('tallies a placement’s outcomes at a warm-up', () => {
    expect(phaseTally(phaseDiagram(), 'post', 0)).toEqual({ trained: 2, plateau: 2, diverged: 0, mixed: 0, cells: 4 });
    expect(phaseTally(phaseDiagram(), 'post', 100)).toEqual({ trained: 3, plateau: 0, diverged: 0, mixed: 1, cells: 4 });
    expect(phaseTally(phaseDiagram(), 'deepnorm', 0)).toMatchObject({ trained: 2, plateau: 1, diverged: 1 });
    expect(phaseTally(null, 'post', 0).cells).toBe(0);
  });
  it.each([
    [{ stopped: 'end', stop_step: 300, every: 3, curve: [1, 2] }, [3, 6]],
    [{ stopped: 'settled', stop_step: 7, every: 3, curve: [1, 2, 3] }, [3, 6, 7]],
    [{ stopped: 'diverged', stop_step: 3, every: 1, curve: [1, 2] }, [1, 2]],
  ] as const)('runCurve %j', (r, xs) => expect(runCurve({ ...r, curve: [...r.curve] }).map((p) => p.x)).toEqual(xs));
});

describe('fig14 Pre-LN with and without warm-up', () => {
  it('a series per warm-up: seed escapes, their mean, failed cells on the never line, the final losses of runs that ran to the end', () => {
    const d = phaseDiagram(['post', 'pre'], { early_exit: 'off' });
    for (const c of d.cells) for (const r of c.runs) if (r.outcome === 'trained') r.stopped = 'end';
    const c = insuranceChart(d, 'post', [5.36]);
    expect(c.lrs).toEqual([1e-3, 1e-2]);
    expect(c.steps).toBe(300);
    expect(c.series.map((s) => s.warmup)).toEqual([0, 100]);
    // the first depth (2): Post-LN trains at both lrs
    expect(c.series[0].escape).toEqual([
      { x: 1e-3, y: 63 },
      { x: 1e-2, y: 63 },
    ]);
    expect(c.series[0].seeds).toEqual([
      [
        { x: 1e-3, y: 60 },
        { x: 1e-2, y: 60 },
      ],
      [
        { x: 1e-3, y: 66 },
        { x: 1e-2, y: 66 },
      ],
    ]); // one list per seed: a chart keeps one point per x
    expect(c.series[0].failed).toEqual([]);
    expect(c.series[0].final[0]).toEqual({ x: 1e-3, y: 3 });
    expect(c.xDomain[0]).toBeCloseTo(1e-3 / 1.6);
    expect(c.lossDomain[1]).toBeGreaterThan(5.36);
  });
  it('a cell that does not train breaks the mean line and is marked by its outcome', () => {
    const d = phaseDiagram(['deepnorm']);
    d.cells = d.cells.filter((c) => c.layers === 8);
    const c = insuranceChart(d, 'deepnorm');
    expect(c.series[0].failed).toEqual([
      { x: 1e-3, outcome: 'plateau' },
      { x: 1e-2, outcome: 'diverged' },
    ]);
    expect(c.series[0].escape.every((p) => Number.isNaN(p.y))).toBe(true);
    expect(c.series[0].final.every((p) => Number.isNaN(p.y))).toBe(true); // settled runs: no final loss compared
    expect(cellAtLr(c.series[0], 1e-2)?.outcome).toBe('diverged');
  });
  it('the reference under a live run: axes over both', () => {
    const ref = insuranceChart(phaseDiagram(['pre']), 'pre');
    const live = phaseDiagram(['pre'], { steps: 200 });
    live.cells = live.cells.filter((c) => c.lr === 1e-3);
    const v = insuranceView(insuranceChart(live, 'pre'), ref);
    expect(v.lrs).toEqual([1e-3, 1e-2]);
    expect(v.ref).toHaveLength(2);
    expect(v.escapeDomain[1]).toBeCloseTo(300 * 1.08);
    expect(insuranceView(ref, null).ref).toEqual([]);
    expect(insuranceChart(null).series).toEqual([]);
  });
  it('exports one row per run', () => expect(fig14Table(phaseDiagram(['pre'])).rows).toHaveLength(16));
});

describe('fig13 DeepNorm beside Post-LN and Pre-LN', () => {
  it('a row per placement and warm-up (the first on top), a panel per lr; seeds that never escape sit past the end', () => {
    const v = escapeRowsView(escapeDoc(phaseDiagram()), null);
    expect(v.rows.map((r) => `${r.placement}:${r.warmup}`)).toEqual(['post:0', 'post:100', 'pre:0', 'pre:100', 'deepnorm:0', 'deepnorm:100']);
    expect(v.lrs).toEqual([1e-3, 1e-2]);
    expect(v.steps).toBe(300);
    expect(v.neverX).toBeCloseTo(324);
    const p = v.panels[0];
    // the first depth only (2)
    expect(p.rows[0]).toMatchObject({ placement: 'post', warmup: 0, y: 5 });
    expect(p.rows[0].seeds).toEqual([
      { seed: 0, x: 60, y: 5, never: false },
      { seed: 1, x: 66, y: 5, never: false },
    ]);
    expect(p.ref).toEqual([]);
    expect(v.yDomain).toEqual([-0.6, 5.6]);
  });
  it('never-escaping seeds, and the reference under a live run on the rows of both', () => {
    const d = phaseDiagram();
    d.cells = d.cells.filter((c) => c.layers === 8);
    const ref = escapeDoc(phaseDiagram());
    const v = escapeRowsView(escapeDoc(d), ref);
    const post0 = v.panels[0].rows[0];
    expect(post0.seeds.map((p) => [p.x, p.never])).toEqual([
      [v.neverX, true],
      [v.neverX, true],
    ]);
    expect(v.panels[0].ref).toHaveLength(6);
    const liveOnly = phaseDiagram(['admin']);
    const w = escapeRowsView(escapeDoc(liveOnly), ref);
    expect(w.rows.map((r) => r.placement)).toEqual(['post', 'post', 'pre', 'pre', 'deepnorm', 'deepnorm', 'admin', 'admin']);
    expect(escapeRowsView(escapeDoc(null), null).panels).toEqual([]);
  });
  it('exports one row per run', () => expect(fig13Table(phaseDiagram()).rows).toHaveLength(48));
});

// ---- fig18: lr-sensitivity ----

describe('fig18 transform (lr-sensitivity)', () => {
  const lsRun = (placement: string, lr: number, seed: number, at: number[], logit: (number | null)[], final: number | null, status = 'ok') => ({
    placement,
    lr,
    seed,
    status,
    stop_step: at[at.length - 1],
    loss0: 5.6,
    final_loss: final,
    at,
    max_logit: logit,
    curve_every: 1,
    curve: [5.6, 4],
  });
  const cell = (lr: number, capped: number, stopped = 0, logit = 3) => ({
    lr,
    final_loss: stopped === 2 ? null : capped,
    capped_loss: capped,
    stopped,
    max_logit: logit,
    logit_at_init: 2,
  });
  const entry = (placement: string, cells: ReturnType<typeof cell>[], best_lr: number, best_loss: number) => ({
    placement,
    loss0: 5.6,
    best_loss,
    best_lr,
    sensitivity: 1,
    sensitivity_per_seed: [1, 1],
    cells,
  });
  const doc = {
    plateau_entropy: 5.3,
    uniform_loss: 5.5,
    eval_batches: 4,
    config: { steps: 20 },
    placements: [
      entry('qknorm', [cell(1e-3, 2), cell(1e-2, 1.5), cell(0.1, 1.8)], 1e-2, 1.5),
      entry('pre', [cell(1e-3, 2.1), cell(1e-2, 1.6), cell(0.1, 5.6, 2, 90)], 1e-2, 1.6),
    ],
    runs: [
      lsRun('pre', 0.1, 0, [1, 10, 13], [2, 40, null], null, 'nan'),
      lsRun('pre', 0.1, 1, [1, 10, 20], [2, 30, 90], null, 'diverged'),
      lsRun('pre', 1e-2, 0, [1, 10, 20], [2, 3, 4], 1.6),
      lsRun('qknorm', 0.1, 0, [1, 10, 20], [1, 2, 2.5], 1.8),
    ],
  } as never;
  it('orders the placements registry first, a spec after; marks stopped lrs and the best point', () => {
    const c = lsChart(doc, 2);
    expect(c.curves.map((x) => x.placement)).toEqual(['pre', 'qknorm']);
    expect(c.lrs).toEqual([1e-3, 1e-2, 0.1]);
    expect(c.curves[0].stopped).toEqual([{ x: 0.1, y: 5.6 }]);
    expect(c.curves[1].stopped).toEqual([]);
    expect(c.curves[0].best).toEqual({ x: 1e-2, y: 1.6 });
    expect(pointAtLr(c.curves[1], 1e-2)).toEqual({ x: 1e-2, y: 1.5 });
    expect(c.steps).toBe(20);
    expect(c.lossDomain[0]).toBeLessThan(1.5);
    expect(c.lossDomain[1]).toBeGreaterThan(5.6);
  });
  it('draws the largest lrs first, each the max over seeds per recorded step, a null skipped', () => {
    const c = lsChart(doc, 2);
    expect(c.logitLrs).toEqual([0.1, 1e-2]);
    const pre = c.logits.find((l) => l.key === 'pre@0.1')!;
    expect(pre.rank).toBe(0);
    expect(pre.points).toEqual([
      { x: 1, y: 2 },
      { x: 10, y: 40 },
      { x: 20, y: 90 },
    ]);
    expect(logitAtStep(pre, 15)).toBe(40);
    expect(logitAtStep(pre, 0)).toBeUndefined();
    expect(logitOverSeeds([{ at: [1, 5], max_logit: [null, Infinity] }])).toEqual([]);
    expect(c.logitDomain[0]).toBeCloseTo(1 / 1.3, 9);
    expect(c.logitDomain[1]).toBeCloseTo(90 * 1.3, 9);
  });
  it('is empty without a document; a reference under a live run widens the axes', () => {
    expect(lsChart(null)).toBe(LS_EMPTY);
    const c = lsChart(doc);
    const v = lsView(LS_EMPTY, c);
    expect(v.refCurves).toHaveLength(2);
    expect(v.lossDomain).toEqual(c.lossDomain);
    expect(v.lrDomain[0]).toBeCloseTo(1e-3 / 1.5, 12);
    expect(lsView(c, c).refCurves).toEqual([]);
  });
  it('downloads: one row per run, the capped loss min(final, ℓ₀) or ℓ₀ when stopped, the largest logit', () => {
    const t = fig18Table(doc);
    expect(t.columns).toEqual(['placement', 'lr', 'seed', 'status', 'loss0', 'final_loss', 'capped_loss', 'max_logit']);
    expect(t.rows[0]).toEqual(['pre', 0.1, 0, 'nan', 5.6, null, 5.6, 40]);
    expect(t.rows[2]).toEqual(['pre', 1e-2, 0, 'ok', 5.6, 1.6, 1.6, 4]);
    const j = fig18Json(doc);
    expect(j.placements.map((p) => p.placement)).toEqual(['qknorm', 'pre']);
    expect(j.runs[1].max_logit).toEqual([2, 30, 90]);
    expect(fig18Table(null).rows).toEqual([]);
  });
});
