// fig8/transform.ts — warmup-length document → Figure H (`fig8`): when Post-LN leaves the plateau, against
// the warm-up's length, per placement and optimizer. Pure functions.
// One series per (placement, optimizer) at the chosen lr factor (the optimizer's smallest lr, or
// its largest): the escape step of the seed-mean curve at each warm-up length. The warm-ups sit to
// scale on a square-root axis (x = √warm-up, ticks labelled with the lengths: 0, 25, 50, 100, 300
// would crowd on a linear axis and 0 has no place on a log one; evenly spaced they read as equal
// steps); a run that never escapes is drawn at the top as a "never" marker, and its line is broken
// there.
import { OPTIMIZERS, PLACEMENTS } from '../../generated/engine-schema';
import type { WarmupLengthResult } from '../../experiments/warmup-length';
import { unionValues, type Domain } from '../../components/common/chart';
import { runLengths } from '../../lib/run-length';

export type LrPick = 'lo' | 'hi';
export interface EscPt {
  x: number;
  /** the escape step, NaN where it never escapes (the line breaks) */
  y: number;
  warmup: number;
  never: boolean;
}
export interface EscSeries {
  key: string;
  placement: string;
  optimizer: string;
  lr: number;
  points: EscPt[];
}
export interface EscapeChart {
  warmups: number[];
  steps: number;
  series: EscSeries[];
  xDomain: [number, number];
  yDomain: [number, number];
}

const EMPTY: EscapeChart = { warmups: [], steps: 0, series: [], xDomain: [-0.5, 0.5], yDomain: [0, 1] };

/** Where a warm-up length sits on the x axis (square-root scale). */
export const warmupX = (w: number): number => Math.sqrt(Math.max(0, w));
/** The x domain over warm-ups `ws`: their √ range padded by 4% each side (at least ±0.5). */
function warmupDomain(ws: number[]): [number, number] {
  const hi = warmupX(Math.max(0, ...ws));
  const pad = Math.max(0.5, 0.04 * hi);
  return [-pad, hi + pad];
}

export function escapeChart(doc: WarmupLengthResult | null, pick: LrPick): EscapeChart {
  if (!doc?.groups?.length) return EMPTY;
  const warmups = [...new Set(doc.groups.map((g) => g.warmup))].sort((a, b) => a - b);
  const steps = Number(doc.config?.steps) || Math.max(...doc.groups.map((g) => g.escape_step ?? 0), 1);
  const series: EscSeries[] = [];
  for (const placement of PLACEMENTS)
    for (const optimizer of OPTIMIZERS) {
      const gs = doc.groups.filter((g) => g.placement === placement && g.optimizer === optimizer);
      if (!gs.length) continue;
      const lrs = [...new Set(gs.map((g) => g.lr))].sort((a, b) => a - b);
      const lr = pick === 'lo' ? lrs[0] : lrs[lrs.length - 1];
      const points = warmups.map((w): EscPt => {
        const e = gs.find((g) => g.lr === lr && g.warmup === w)?.escape_step ?? null;
        return { x: warmupX(w), y: e ?? NaN, warmup: w, never: e == null };
      });
      series.push({ key: `${placement}-${optimizer}`, placement, optimizer, lr, points });
    }
  return { warmups, steps, series, xDomain: warmupDomain(warmups), yDomain: [0, steps * 1.08] };
}

/** What the chart draws: the live chart, and the reference's series muted under it, on one axis. */
export interface EscapeView {
  /** the warm-ups on the x axis, both documents', ascending (x = warmupX of each) */
  warmups: number[];
  /** the live chart's series */
  series: EscSeries[];
  /** the reference's series (muted), likewise; empty without a reference */
  ref: EscSeries[];
  /** the reference's run length: where its "never" markers sit; null without a reference */
  refSteps: number | null;
  /** the x of the live chart's warm-ups (hover and keyboard go through these) */
  xs: number[];
  xDomain: Domain;
  yDomain: Domain;
}

/**
 * Chart `c` with the reference `ref` (the precomputed document at the same lr pick) drawn muted
 * under it: the x axis holds every warm-up of either (each at its √ place), the y axis both runs'
 * lengths. No reference (or an empty one): `c` as it is.
 */
export function escapeView(c: EscapeChart, ref: EscapeChart | null): EscapeView {
  if (!ref?.series.length)
    return { warmups: c.warmups, series: c.series, ref: [], refSteps: null, xs: c.warmups.map(warmupX), xDomain: c.xDomain, yDomain: c.yDomain };
  const warmups = unionValues(c.warmups, ref.warmups);
  // the live line at the live run's length, the reference's muted markers at its own (lib/run-length.ts)
  const lengths = runLengths(c.steps, ref.steps);
  return {
    warmups,
    series: c.series,
    ref: ref.series,
    refSteps: lengths.refSteps,
    xs: c.warmups.map(warmupX),
    xDomain: warmupDomain(warmups),
    yDomain: [0, lengths.span * 1.08],
  };
}

/** A series' point at x (warmupX of a warm-up), or undefined. */
export const pointAt = (s: EscSeries | undefined, x: number) => s?.points.find((p) => p.x === x);
