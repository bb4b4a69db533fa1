// fig7/transform.ts — adam-first-step document → Figure C (`fig7`)'s two panels. Pure functions.
// One series per placement the document ran (engine order; its first optimizer's runs), against the step t:
//   (a) the global gradient norm ‖g_t‖;
//   (b) the update's RMS over every coordinate divided by the step's lr (for Adam the RMS of
//       m̂/(√v̂ + ε)), with 1 — "every coordinate moves by lr" — as the reference line.
import { PLACEMENTS } from '../../generated/engine-schema';
import type { AdamFirstStepResult } from '../../experiments/adam-first-step';
import { afsByPlacement } from '../../experiments/verdicts.js';
import { unionDomain, type Domain } from '../../components/common/chart';

export interface StepPt {
  x: number;
  y: number;
}
export interface StepSeries {
  placement: string;
  grad: StepPt[];
  rms: StepPt[];
  status: string;
}
export interface AdamChart {
  steps: number;
  series: StepSeries[];
  gradDomain: [number, number];
  rmsDomain: [number, number];
}

const EMPTY: AdamChart = { steps: 0, series: [], gradDomain: [0, 1], rmsDomain: [0, 1.05] };
const pts = (ys: readonly number[] | undefined): StepPt[] => (ys ?? []).map((y, i) => ({ x: i + 1, y })).filter((p) => Number.isFinite(p.y));

export function adamChart(doc: AdamFirstStepResult | null): AdamChart {
  if (!doc?.runs) return EMPTY;
  const runs = afsByPlacement(doc) as Record<string, AdamFirstStepResult['runs'][number]>;
  const names = PLACEMENTS.filter((p) => runs[p]) as string[];
  const series = names.map((placement) => {
    const s = runs[placement];
    return { placement, grad: pts(s.grad_norm), rms: pts(s.update_rms), status: s.status };
  });
  const steps = Math.max(0, ...series.map((s) => s.rms.length));
  if (!steps) return EMPTY;
  const gmax = Math.max(...series.flatMap((s) => s.grad.map((p) => p.y)));
  const rmax = Math.max(1, ...series.flatMap((s) => s.rms.map((p) => p.y)));
  return { steps, series, gradDomain: [0, gmax * 1.08], rmsDomain: [0, rmax * 1.05] };
}

/** A series' value at step t in panel `which`, or undefined. */
export const valueAt = (s: StepSeries | undefined, which: 'grad' | 'rms', t: number) => s?.[which][t - 1]?.y;

/** The domains of the two panels (the step axis is shared). */
export interface AdamAxes {
  xDomain: Domain;
  gradDomain: Domain;
  rmsDomain: Domain;
}

/** The axes of chart `c` with the reference `ref` (its series, muted) drawn too: every step of
 *  either, values of both. No reference (or an empty one): `c`'s own axes. */
export function adamAxes(c: AdamChart, ref: AdamChart | null): AdamAxes {
  const own: AdamAxes = { xDomain: [1, Math.max(2, c.steps)], gradDomain: c.gradDomain, rmsDomain: c.rmsDomain };
  if (!ref?.steps) return own;
  const live = c.steps > 0;
  return {
    xDomain: [1, Math.max(2, c.steps, ref.steps)],
    gradDomain: unionDomain([live ? c.gradDomain : null, ref.gradDomain], { fallback: own.gradDomain }),
    rmsDomain: unionDomain([live ? c.rmsDomain : null, ref.rmsDomain], { fallback: own.rmsDomain }),
  };
}
