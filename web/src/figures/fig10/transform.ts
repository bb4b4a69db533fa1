// fig10/transform.ts — step-size document → Figure E (`fig10`)'s two panels against depth L. Pure.
// One series per placement the document measured (engine order):
//   (a) η*, the sign-step size (Adam's first step at lr η) with the lowest loss of the seed mean,
//       on a log axis (the grid of η the run tried sets its range), with its near-best range
//       (`eta_near_best`: the η whose seed-mean loss is within eta_margin·loss0 of the lowest) as a band
//       and the largest η that still lowers the loss by eta_min_gain·loss0 (`eta_max_useful`);
//   (b) the mean over layers of ‖Δlogits‖² when only one layer takes the sign step at layer_eta
//       (log axis): how much one layer's update moves the output.
import { PLACEMENTS } from '../../generated/engine-schema';
import type { StepSizeResult } from '../../experiments/step-size';
import { unionDomain, unionValues, type Domain } from '../../components/common/chart';
import { paddedLogDomain } from '../../lib/axis';

export interface DepthPt {
  x: number;
  y: number;
}
export interface RangePt {
  x: number;
  lo: number;
  hi: number;
}
export interface DepthSeries {
  placement: string;
  eta: DepthPt[];
  /** the near-best range of η per depth */
  near: RangePt[];
  /** the largest useful η per depth (depths where none is are left out) */
  useful: DepthPt[];
  perLayer: DepthPt[];
}
export interface StepSizeChart {
  depths: number[];
  series: DepthSeries[];
  etaDomain: [number, number];
  layerDomain: [number, number];
}

const EMPTY: StepSizeChart = { depths: [], series: [], etaDomain: [1e-4, 1e-1], layerDomain: [1e-3, 1] };
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

export function stepSizeChart(doc: StepSizeResult | null): StepSizeChart {
  if (!doc?.placements) return EMPTY;
  const names = PLACEMENTS.filter((p) => doc.placements[p]) as string[];
  const series = names.map((placement) => {
    const cells = doc.placements[placement];
    return {
      placement,
      eta: cells.map((c) => ({ x: c.layers, y: c.eta_star_of_mean })),
      near: cells.filter((c) => c.eta_near_best?.length === 2).map((c) => ({ x: c.layers, lo: c.eta_near_best[0], hi: c.eta_near_best[1] })),
      useful: cells.filter((c) => c.eta_max_useful != null).map((c) => ({ x: c.layers, y: c.eta_max_useful as number })),
      perLayer: cells.map((c) => ({ x: c.layers, y: mean(c.layer_dlogits2.map((d) => d.mean)) })).filter((p) => p.y > 0),
    };
  });
  const depths = [...new Set(series.flatMap((s) => s.eta.map((p) => p.x)))].sort((a, b) => a - b);
  const etas = (doc.config?.etas as number[] | undefined) ?? series.flatMap((s) => s.eta.map((p) => p.y));
  const lv = series.flatMap((s) => s.perLayer.map((p) => p.y));
  if (!depths.length || !etas.length) return EMPTY;
  return {
    depths,
    series,
    etaDomain: [Math.min(...etas) / 1.5, Math.max(...etas) * 1.5],
    layerDomain: lv.length ? [Math.min(...lv) / 1.5, Math.max(...lv) * 1.5] : EMPTY.layerDomain,
  };
}

export const rangeAt = (s: DepthSeries | undefined, L: number) => s?.near.find((p) => p.x === L);
export const pointAt = (s: DepthSeries | undefined, which: 'eta' | 'perLayer' | 'useful', L: number) => s?.[which].find((p) => p.x === L);

/** The depth ticks and the domains of the two panels. */
export interface StepSizeAxes {
  depths: number[];
  xDomain: Domain;
  etaDomain: Domain;
  layerDomain: Domain;
}

const depthDomain = (depths: number[]): Domain | null => (depths.length ? paddedLogDomain(depths, 1.25) : null);

/** The axes of chart `c` with the reference `ref` (its series, muted) drawn too: every depth of
 *  either, domains holding both (each padded as its own chart is). No reference: `c`'s own axes. */
export function stepSizeAxes(c: StepSizeChart, ref: StepSizeChart | null): StepSizeAxes {
  const own: StepSizeAxes = { depths: c.depths, xDomain: depthDomain(c.depths) ?? [1, 2], etaDomain: c.etaDomain, layerDomain: c.layerDomain };
  if (!ref?.depths.length) return own;
  const live = c.depths.length > 0;
  const liveLayer = c.series.some((s) => s.perLayer.length);
  const refLayer = ref.series.some((s) => s.perLayer.length);
  const log = { log: true };
  return {
    depths: unionValues(c.depths, ref.depths),
    xDomain: unionDomain([depthDomain(c.depths), depthDomain(ref.depths)], { ...log, fallback: own.xDomain }),
    etaDomain: unionDomain([live ? c.etaDomain : null, ref.etaDomain], { ...log, fallback: own.etaDomain }),
    layerDomain: unionDomain([liveLayer ? c.layerDomain : null, refLayer ? ref.layerDomain : null], { ...log, fallback: own.layerDomain }),
  };
}
