// fig12/transform.ts — sharpness document → Figure G (`fig12`)'s panels: Adam's preconditioned sharpness
// against the stability threshold through the first steps. Pure functions.
// One panel per (placement, warm-up) the document ran (engine order, then warm-up ascending); in each,
// one series per (optimizer, seed): λ_t = λ_max(P_t⁻¹H) at the measured steps t, and the threshold
// (2 + 2β1)/((1 − β1)·η_t) at those steps (the panel's first run's: every optimizer the experiment
// offers has the same one, Adam's). The y axis is logarithmic, so an estimate ≤ 0 (a Hessian with no
// positive curvature, which the toy runs do not show) is left out of its line, which breaks there.
import { OPTIMIZERS, PLACEMENTS } from '../../generated/engine-schema';
import type { SharpnessResult } from '../../experiments/sharpness';
import { extentOf, unionDomain, unionValues, type Domain } from '../../components/common/chart';

export interface ShPt {
  x: number;
  y: number;
}
export interface ShSeries {
  key: string;
  optimizer: string;
  seed: number;
  status: string;
  /** λ_t at the measured steps (NaN where not positive) */
  points: ShPt[];
  /** λ_t / threshold_t at the same steps */
  ratio: ShPt[];
}
export interface ShPanel {
  key: string;
  placement: string;
  warmup: number;
  series: ShSeries[];
  /** the threshold at the measured steps */
  threshold: ShPt[];
}
export interface SharpnessChart {
  panels: ShPanel[];
  /** every measured step of the document, ascending */
  steps: number[];
  /** the run length */
  length: number;
  yDomain: Domain;
}

const EMPTY: SharpnessChart = { panels: [], steps: [], length: 0, yDomain: [1, 10] };
const positive = (y: number) => (y > 0 ? y : NaN);

export function sharpnessChart(doc: SharpnessResult | null): SharpnessChart {
  if (!doc?.runs?.length) return EMPTY;
  const order = (xs: readonly string[], known: readonly string[]) => [...known.filter((k) => xs.includes(k)), ...xs.filter((x) => !known.includes(x))];
  const placements = order([...new Set(doc.runs.map((r) => r.placement))], PLACEMENTS);
  const optimizers = order([...new Set(doc.runs.map((r) => r.optimizer))], OPTIMIZERS);
  const warmups = unionValues(doc.runs.map((r) => r.warmup));
  const panels: ShPanel[] = [];
  for (const placement of placements)
    for (const warmup of warmups) {
      const runs = doc.runs
        .filter((r) => r.placement === placement && r.warmup === warmup)
        .sort((a, b) => optimizers.indexOf(a.optimizer) - optimizers.indexOf(b.optimizer) || a.seed - b.seed);
      if (!runs.length) continue;
      const series = runs.map((r) => ({
        key: `${r.optimizer}-${r.seed}`,
        optimizer: r.optimizer,
        seed: r.seed,
        status: r.status,
        points: r.steps.map((t, i) => ({ x: t, y: positive(r.sharpness[i]) })),
        ratio: r.steps.map((t, i) => ({ x: t, y: r.sharpness[i] / r.threshold[i] })),
      }));
      const longest = runs.reduce((a, b) => (b.steps.length > a.steps.length ? b : a));
      const threshold = longest.steps.map((t, i) => ({ x: t, y: longest.threshold[i] }));
      panels.push({ key: `${placement}-${warmup}`, placement, warmup, series, threshold });
    }
  const ys = panels.flatMap((p) => [...p.threshold.map((q) => q.y), ...p.series.flatMap((s) => s.points.map((q) => q.y))]);
  const [lo, hi] = extentOf(ys, true) ?? [1, 10];
  return {
    panels,
    steps: unionValues(...doc.runs.map((r) => r.steps)),
    length: Number(doc.config?.steps) || Math.max(...doc.runs.map((r) => r.loss.length)),
    yDomain: [lo / 1.5, hi * 1.5],
  };
}

/** What the figure draws: the live chart, and the reference's panels muted under the live ones of
 *  the same placement and warm-up, on axes holding both. */
export interface SharpnessAxes {
  xDomain: Domain;
  yDomain: Domain;
  /** the reference's panel under each live panel (by key), or undefined */
  refPanel: (key: string) => ShPanel | undefined;
}

export function sharpnessAxes(c: SharpnessChart, ref: SharpnessChart | null): SharpnessAxes {
  const both = ref?.panels.length ? [c, ref] : [c];
  const length = Math.max(1, ...both.map((x) => x.length));
  return {
    xDomain: [0, length],
    yDomain: unionDomain(
      both.filter((x) => x.panels.length).map((x) => x.yDomain),
      { log: true, fallback: c.yDomain },
    ),
    refPanel: (key) => ref?.panels.find((p) => p.key === key),
  };
}

/** A series' λ and λ/threshold at measured step t, or undefined. */
export function valueAt(s: ShSeries | undefined, t: number): { lambda: number; ratio: number } | undefined {
  const i = s?.points.findIndex((p) => p.x === t) ?? -1;
  return s && i >= 0 ? { lambda: s.points[i].y, ratio: s.ratio[i].y } : undefined;
}
