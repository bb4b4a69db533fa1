// fig6/transform.ts — tied-output document → Figure A (`fig6`)'s two panels for one model variant. Pure.
// The variant is the output layer (tied to the embedding, or a matrix of its own) and the input
// scale (x0 = √d·E[tok], or E[tok]); tied with √d is the article's model (Figure 3c).
//   (a) the last layer's W² gradient (per-batch statistic) against depth L, one series per
//       placement, with Pre-LN's first value extrapolated by 1/√L (dotted);
//   (b) the initial model's mean probability of the current token against L, on a log axis, with
//       the uniform 1/V for reference.
// Also the log–log slope of Pre-LN's gradient for every variant (−½ is 1/√L), for the table.
import { PLACEMENTS } from '../../generated/engine-schema';
import type { TiedOutputResult } from '../../experiments/tied-output';
import { extentOf, unionDomain, unionValues, type Domain } from '../../components/common/chart';

export const OUTPUTS = ['tied', 'untied'] as const;
export const INPUTS = ['sqrt_d', 'none'] as const;
export type OutputChoice = (typeof OUTPUTS)[number];
export type InputChoice = (typeof INPUTS)[number];

export interface TPt {
  x: number;
  y: number;
  std?: number;
  lo?: number;
  hi?: number;
}
export interface TSeries {
  placement: string;
  grad: TPt[];
  p: TPt[];
  slope: number | null;
}
export interface TiedChart {
  depths: number[];
  series: TSeries[];
  extrap: TPt[];
  gradDomain: [number, number];
  pDomain: [number, number];
  uniform: number | null;
  /** Pre-LN's slope in every variant of the document, in its order */
  slopes: { output: OutputChoice; input: InputChoice; slope: number | null }[];
}

const pt = (x: number, m: { mean: number; std: number } | undefined, positive = false): TPt => {
  const y = m?.mean ?? NaN;
  const sd = m?.std;
  const ok = sd != null && Number.isFinite(sd);
  return { x, y, std: ok ? sd : undefined, lo: ok && (!positive || y - sd! > 0) ? y - sd! : undefined, hi: ok ? y + sd! : undefined };
};

const EMPTY: TiedChart = { depths: [], series: [], extrap: [], gradDomain: [0, 1], pDomain: [1e-4, 1], uniform: null, slopes: [] };

export function tiedChart(doc: TiedOutputResult | null, output: OutputChoice, input: InputChoice): TiedChart {
  const v = doc?.variants?.find((x) => x.output === output && x.input_scale === input);
  if (!doc || !v) return { ...EMPTY, slopes: slopesOf(doc) };
  const names = PLACEMENTS.filter((p) => v.placements[p]) as string[];
  const series: TSeries[] = names.map((placement) => {
    const s = v.placements[placement];
    return {
      placement,
      grad: s.depths.map((d) => pt(d.layers, d.W2_per_batch)),
      p: s.depths.map((d) => pt(d.layers, d.p_current, true)).filter((q) => q.y > 0),
      slope: s.slope_per_batch ?? null,
    };
  });
  const depths = [...new Set(series.flatMap((s) => s.grad.map((q) => q.x)))].sort((a, b) => a - b);
  const pre = series.find((s) => s.placement === 'pre')?.grad[0];
  const extrap = pre && Number.isFinite(pre.y) ? depths.map((L) => ({ x: L, y: pre.y * Math.sqrt(pre.x / L) })) : [];
  const gvals = [...series.flatMap((s) => s.grad.flatMap((q) => [q.y, q.hi ?? q.y])), ...extrap.map((q) => q.y)].filter(Number.isFinite);
  const gmax = gvals.length ? Math.max(...gvals) : 1;
  const uniform = Number.isFinite(doc.uniform_p) && doc.uniform_p > 0 ? doc.uniform_p : null;
  const pvals = [...series.flatMap((s) => s.p.flatMap((q) => [q.y, q.lo ?? q.y, q.hi ?? q.y])), ...(uniform ? [uniform] : [])].filter((y) => y > 0);
  return {
    depths,
    series,
    extrap,
    gradDomain: [0, gmax > 0 ? gmax * 1.08 : 1],
    pDomain: pvals.length ? [Math.min(...pvals) / 1.5, Math.min(1, Math.max(...pvals) * 1.5)] : EMPTY.pDomain,
    uniform,
    slopes: slopesOf(doc),
  };
}

function slopesOf(doc: TiedOutputResult | null) {
  return (doc?.variants ?? []).map((v) => ({ output: v.output, input: v.input_scale, slope: v.placements.pre?.slope_per_batch ?? null }));
}

/** A series' point at depth L in panel `which`, or undefined. */
export const pointAt = (s: TSeries | undefined, which: 'grad' | 'p', L: number) => s?.[which].find((q) => q.x === L);

/** The depth ticks and the domains of the two panels. */
export interface TiedAxes {
  depths: number[];
  xDomain: Domain;
  gradDomain: Domain;
  pDomain: Domain;
}

const depthDomain = (depths: number[]): Domain | null => (depths.length ? [depths[0] - 1, depths[depths.length - 1] + 1] : null);

/**
 * The axes of chart `c` with the reference `ref` (the same variant of the precomputed document:
 * its series, muted; not its 1/√L line nor its spreads) drawn too: every depth of either, values of
 * both, padded as a chart of its own is. No reference (or an empty one): `c`'s own axes.
 */
export function tiedAxes(c: TiedChart, ref: TiedChart | null): TiedAxes {
  const own: TiedAxes = { depths: c.depths, xDomain: depthDomain(c.depths) ?? [0, 1], gradDomain: c.gradDomain, pDomain: c.pDomain };
  if (!ref?.depths.length) return own;
  const live = c.depths.length > 0;
  const g = extentOf(ref.series.flatMap((s) => s.grad.map((q) => q.y)));
  const p = extentOf(
    ref.series.flatMap((s) => s.p.map((q) => q.y)),
    true,
  );
  return {
    depths: unionValues(c.depths, ref.depths),
    xDomain: unionDomain([depthDomain(c.depths), depthDomain(ref.depths)], { fallback: own.xDomain }),
    gradDomain: unionDomain([live ? c.gradDomain : null, g && g[1] > 0 ? [0, g[1] * 1.08] : null], { fallback: own.gradDomain }),
    pDomain: unionDomain([live ? c.pDomain : null, p && [p[0] / 1.5, Math.min(1, p[1] * 1.5)]], { log: true, fallback: own.pDomain }),
  };
}
