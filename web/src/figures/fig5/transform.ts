// fig5/transform.ts — output-sensitivity document → Figure F (`fig5`)'s log–log chart. Pure functions.
// One series per placement the document measured (engine order): the mean over seeds of the
// logits' mean squared change against depth L, with ± one std where it stays positive (a log axis
// has no room for ≤ 0); two guides: O(L) through Post-LN's shallowest point and O(log L) through
// Pre-LN's (the shapes Liu et al. 2020 report), each only where it is defined (log L needs L ≥ 2).
import { PLACEMENTS } from '../../generated/engine-schema';
import type { OutputSensitivityResult } from '../../experiments/output-sensitivity';
import { extentOf, unionDomain, unionValues, type Domain } from '../../components/common/chart';
import { paddedLogDomain } from '../../lib/axis';

export interface SensPt {
  x: number;
  y: number;
  lo?: number;
  hi?: number;
  std?: number;
}
export interface SensSeries {
  placement: string;
  points: SensPt[];
  slope: number | null;
}
export interface SensChart {
  depths: number[];
  series: SensSeries[];
  /** O(L) and O(log L) guides (empty when their anchor is missing) */
  linear: SensPt[];
  log: SensPt[];
  xDomain: [number, number];
  yDomain: [number, number];
}

const EMPTY: SensChart = { depths: [], series: [], linear: [], log: [], xDomain: [1, 2], yDomain: [1e-4, 1e-2] };

export function sensitivityChart(doc: OutputSensitivityResult | null): SensChart {
  if (!doc?.placements) return EMPTY;
  const names = [...PLACEMENTS.filter((p) => doc.placements[p]), ...Object.keys(doc.placements).filter((p) => !(PLACEMENTS as readonly string[]).includes(p))];
  const series: SensSeries[] = names.map((placement) => {
    const s = doc.placements[placement];
    const points = (s.depths ?? [])
      .map((d): SensPt => {
        const y = d.dlogits2?.mean ?? NaN;
        const sd = d.dlogits2?.std;
        const ok = sd != null && Number.isFinite(sd);
        return { x: d.layers, y, std: ok ? sd : undefined, lo: ok && y - sd! > 0 ? y - sd! : undefined, hi: ok ? y + sd! : undefined };
      })
      .filter((p) => p.y > 0 && Number.isFinite(p.x));
    return { placement, points, slope: s.slope ?? null };
  });
  const depths = [...new Set(series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  const anchor = (p: string) => series.find((s) => s.placement === p)?.points[0];
  const a = anchor('post'),
    b = anchor('pre');
  const linear = a ? depths.map((L) => ({ x: L, y: (a.y * L) / a.x })) : [];
  const log = b && b.x >= 2 ? depths.filter((L) => L >= 2).map((L) => ({ x: L, y: (b.y * Math.log(L)) / Math.log(b.x) })) : [];
  const ys = [...series.flatMap((s) => s.points.flatMap((p) => [p.y, p.lo ?? p.y, p.hi ?? p.y])), ...linear.map((p) => p.y), ...log.map((p) => p.y)].filter(
    (y) => y > 0 && Number.isFinite(y),
  );
  if (!depths.length || !ys.length) return EMPTY;
  return {
    depths,
    series,
    linear,
    log,
    xDomain: paddedLogDomain(depths, 1.25),
    yDomain: [Math.min(...ys) / 1.4, Math.max(...ys) * 1.4],
  };
}

/** A series' point at depth L, or undefined. */
export const pointAt = (s: SensSeries | undefined, L: number) => s?.points.find((p) => p.x === L);

/** The depth ticks and the domains of a chart drawn with the reference's series muted under it. */
export interface SensAxes {
  depths: number[];
  xDomain: Domain;
  yDomain: Domain;
}

/**
 * The axes of chart `c` with the reference `ref` (its series, muted) drawn too: depths and domains
 * holding both (the reference padded as a chart of its own is: ×/÷ 1.25 on L, ×/÷ 1.4 on the
 * values). No reference (or an empty one): `c`'s own axes.
 */
export function sensitivityAxes(c: SensChart, ref: SensChart | null): SensAxes {
  if (!ref?.depths.length) return { depths: c.depths, xDomain: c.xDomain, yDomain: c.yDomain };
  const live = c.depths.length > 0;
  const ry = extentOf(
    ref.series.flatMap((s) => s.points.map((p) => p.y)),
    true,
  );
  return {
    depths: unionValues(c.depths, ref.depths),
    xDomain: unionDomain([live ? c.xDomain : null, paddedLogDomain(ref.depths, 1.25)], { log: true, fallback: c.xDomain }),
    yDomain: unionDomain([live ? c.yDomain : null, ry && [ry[0] / 1.4, ry[1] * 1.4]], { log: true, fallback: c.yDomain }),
  };
}
