// fig14/transform.ts — phase-diagram document (the `preWarmup` slot) → Figure of claim 9 (`fig14`):
// Pre-LN's warm-up as insurance. Pure functions. One series per warm-up of the document (none
// first), against the peak lr on a log axis: (a) each seed's escape step from the plateau and their
// mean (a cell that does not train draws its marker on a "never" line at the run's length, shaped
// by its outcome: what warm-up changes is read there); (b) the final loss of the runs that trained
// and ran to their last step (what warm-up costs beyond the delay), with the plateau and the best
// loss ln(successors) as guides.
import type { Domain } from '../../components/common/chart';
import { unionValues } from '../../components/common/chart';
import { paddedLogDomain } from '../../lib/axis';
import { runLengths } from '../../lib/run-length';
import type { Outcome, PhaseCell, PhaseDiagramResult } from '../../experiments/phase-diagram';

export interface LrPoint {
  x: number;
  y: number;
}
export interface WarmupSeries {
  warmup: number;
  /** per lr: the seeds' mean escape step (NaN where none escaped: the line breaks) */
  escape: LrPoint[];
  /** every seed's escape steps, one list per seed (a chart's points keep one per x) */
  seeds: LrPoint[][];
  /** the lrs whose cell did not train, with the cell's outcome */
  failed: { x: number; outcome: Outcome }[];
  /** per lr: the mean final loss of the seeds that trained and ran to the end (NaN: none) */
  final: LrPoint[];
  cells: PhaseCell[];
}
export interface InsuranceChart {
  placement: string;
  lrs: number[];
  steps: number;
  series: WarmupSeries[];
  xDomain: Domain;
  escapeDomain: Domain;
  lossDomain: Domain;
}

const EMPTY: InsuranceChart = { placement: 'pre', lrs: [], steps: 0, series: [], xDomain: [1e-3, 1e-1], escapeDomain: [0, 1], lossDomain: [1, 6] };
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const seedsOf = (cells: PhaseCell[]) => unionValues(cells.flatMap((c) => c.runs.map((r) => r.seed)));

/** The chart of `placement`'s cells at the document's first depth; `marks`: losses the loss axis holds. */
export function insuranceChart(doc: PhaseDiagramResult | null, placement = 'pre', marks: number[] = []): InsuranceChart {
  const all = (doc?.cells ?? []).filter((c) => c.placement === placement);
  if (!all.length) return EMPTY;
  const layers = Math.min(...all.map((c) => c.layers));
  const cells = all.filter((c) => c.layers === layers);
  const lrs = unionValues(cells.map((c) => c.lr));
  const warmups = unionValues(cells.map((c) => c.warmup));
  const steps = Number(doc?.config?.steps) || Math.max(...cells.flatMap((c) => c.runs.map((r) => r.stop_step)));
  const series = warmups.map((warmup): WarmupSeries => {
    const mine = lrs.map((lr) => cells.find((c) => c.warmup === warmup && c.lr === lr)).filter((c): c is PhaseCell => !!c);
    const escapes = (c: PhaseCell) => c.runs.map((r) => r.escape_step).filter((e): e is number => e != null);
    const finals = (c: PhaseCell) =>
      c.runs.filter((r) => r.outcome === 'trained' && r.stopped === 'end' && r.final_loss != null).map((r) => r.final_loss as number);
    return {
      warmup,
      escape: mine.map((c) => ({ x: c.lr, y: c.outcome === 'trained' ? mean(escapes(c)) : NaN })),
      seeds: seedsOf(mine).map((seed) =>
        mine.flatMap((c) => {
          const e = c.runs.find((r) => r.seed === seed)?.escape_step;
          return e == null ? [] : [{ x: c.lr, y: e }];
        }),
      ),
      failed: mine.filter((c) => c.outcome !== 'trained').map((c) => ({ x: c.lr, outcome: c.outcome })),
      final: mine.map((c) => ({ x: c.lr, y: mean(finals(c)) })),
      cells: mine,
    };
  });
  const losses = [...marks, ...series.flatMap((s) => s.final.map((p) => p.y))].filter(Number.isFinite);
  return {
    placement,
    lrs,
    steps,
    series,
    xDomain: paddedLogDomain(lrs, 1.6),
    escapeDomain: [0, steps * 1.08],
    lossDomain: losses.length ? [Math.floor(Math.min(...losses) * 2) / 2, Math.ceil(Math.max(...losses) * 2) / 2 + 0.01] : [1, 6],
  };
}

/** What is drawn: the live chart, and the reference's series (muted) on axes that hold both. */
export interface InsuranceView {
  c: InsuranceChart;
  ref: WarmupSeries[];
  lrs: number[];
  xDomain: Domain;
  escapeDomain: Domain;
  lossDomain: Domain;
}
export function insuranceView(c: InsuranceChart, ref: InsuranceChart | null): InsuranceView {
  if (!ref?.series.length) return { c, ref: [], lrs: c.lrs, xDomain: c.xDomain, escapeDomain: c.escapeDomain, lossDomain: c.lossDomain };
  const lrs = unionValues(c.lrs, ref.lrs);
  return {
    c,
    ref: ref.series,
    lrs,
    xDomain: paddedLogDomain(lrs, 1.6),
    // the "never" line is the live run's own length (Figure14 draws it at c.steps); the axis holds both
    escapeDomain: [0, runLengths(c.steps, ref.steps).span * 1.08],
    lossDomain: [Math.min(c.lossDomain[0], ref.lossDomain[0]), Math.max(c.lossDomain[1], ref.lossDomain[1])],
  };
}

/** A series' cell at lr `x`, or undefined. */
export const cellAtLr = (s: WarmupSeries | undefined, x: number) => s?.cells.find((c) => c.lr === x);
