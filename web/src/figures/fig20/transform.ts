// fig20/transform.ts — the angular-update document → fig20's panels. Pure functions.
// One panel per warm-up of the document (ascending: without warm-up first); in each, per placement
// (registry order), the seed-mean over its runs of the step's angle, averaged over the layers' weight
// groups (attention and FFN of every layer: experiments/angular-update.ts meanAngle), in degrees,
// against the step, and the same mean of the relative update ‖ΔW‖/‖W‖ for the readout. A run that
// stopped early shortens its placement's line to the steps every seed measured. The y axis is
// logarithmic: Adam's first steps turn the weights tens of times further than the steps after them,
// and a warm-up's first steps turn them a hundred times less; an angle of 0 is left out of its line.
import { extentOf, unionDomain, type Domain } from '../../components/common/chart';
import { evenlySpaced } from '../../lib/axis';
import { inRegistryOrder } from '../../lib/placements';
import { meanCurve } from '../../engine/documents';
import { meanAngle, type AngularUpdateResult } from '../../experiments/angular-update';

export interface AuPt {
  x: number;
  y: number;
}
export interface AuSeries {
  key: string; // `${warmup}-${placement}`
  placement: string;
  /** seed-mean angle per step, degrees */
  angle: AuPt[];
  /** seed-mean relative update per step */
  relative: number[];
  seeds: number;
}
export interface AuPanel {
  key: string; // `w${warmup}`
  warmup: number;
  series: AuSeries[];
}
export interface AuChart {
  steps: number;
  panels: AuPanel[];
  yDomain: [number, number];
}

const EMPTY: AuChart = { steps: 0, panels: [], yDomain: [0.01, 1] };
const DEG = 180 / Math.PI;

export function auChart(doc: AngularUpdateResult | null): AuChart {
  if (!doc?.runs?.length) return EMPTY;
  const placements = inRegistryOrder([...new Set(doc.runs.map((r) => r.placement))]) as string[];
  const warmups = [...new Set(doc.runs.map((r) => r.warmup))].sort((a, b) => a - b);
  const panels = warmups.map((warmup) => ({
    key: `w${warmup}`,
    warmup,
    series: placements.flatMap((placement) => {
      const runs = doc.runs.filter((r) => r.placement === placement && r.warmup === warmup);
      if (!runs.length) return [];
      return [
        {
          key: `${warmup}-${placement}`,
          placement,
          angle: meanCurve(runs.map(meanAngle)).map((y, i) => ({ x: i + 1, y: y > 0 ? y * DEG : NaN })),
          relative: meanCurve(runs.map((r) => meanAngle({ angle: r.relative }))),
          seeds: runs.length,
        },
      ];
    }),
  }));
  const extent = extentOf(
    panels.flatMap((p) => p.series.flatMap((s) => s.angle.map((q) => q.y))),
    true,
  );
  const steps = Math.max(0, ...panels.flatMap((p) => p.series.map((s) => s.angle.length)));
  if (!steps || !extent) return EMPTY;
  return { steps, panels, yDomain: [extent[0] / 1.3, extent[1] * 1.3] };
}

/** A series' angle (degrees) and relative update at step t (undefined past its end). */
export const valueAt = (s: AuSeries, t: number) => ({ angle: s.angle[t - 1]?.y, relative: s.relative[t - 1] });

/** The steps the data table shows: 1, then every tenth of the run (every step of a run of 10 or fewer). */
export const tableSteps = (steps: number): number[] => evenlySpaced(steps, 10);

/** What the figure draws on: the steps and angles of the drawn chart and of the reference muted
 *  under it (a log domain), and the reference's panel of the same warm-up. */
export interface AuAxes {
  xDomain: Domain;
  yDomain: Domain;
  refPanel: (key: string) => AuPanel | undefined;
}

export function auAxes(c: AuChart, ref: AuChart | null): AuAxes {
  const under = ref && ref !== c && ref.steps ? ref : null;
  return {
    xDomain: [1, Math.max(2, c.steps, under?.steps ?? 0)],
    yDomain: unionDomain([c.steps ? c.yDomain : null, under?.yDomain], { log: true, fallback: c.yDomain }),
    refPanel: (key) => under?.panels.find((p) => p.key === key),
  };
}
