// fig11/transform.ts — depth-factors document → Figure B (`fig11`)'s two panels against the layer l. Pure.
//   (a) Figure 3a at depth L: each placement's W² gradient per layer (per-batch statistic, mean ±
//       std over seeds) on a log axis, with Appendix F's prediction for the chosen placement
//       (the measured last layer times (2/3)^((L−l)/2), dashed);
//   (b) for the chosen placement, the factors the gradient picks up crossing layer l: the norms'
//       (both sublayers' mean factors multiplied), the residual Jacobians' (likewise), and the
//       layer's whole factor ‖dx‖/‖dout‖ (the engine's per-seed product, mean over seeds), with
//       guides at 1 (flat) and at Appendix F's √(2/3) per layer.
import { PLACEMENTS } from '../../generated/engine-schema';
import type { DepthFactorsResult } from '../../experiments/depth-factors';
import { extentOf, unionDomain, type Domain } from '../../components/common/chart';
import { evenlySpaced } from '../../lib/axis';

export type FactorKind = 'norm' | 'residual' | 'layer';
export const FACTOR_KINDS: readonly FactorKind[] = ['norm', 'residual', 'layer'];

export interface FPt {
  x: number;
  y: number;
  lo?: number;
  hi?: number;
}
export interface GradSeries {
  placement: string;
  grad: FPt[];
}
export interface DepthFactorsChart {
  L: number;
  layers: number[];
  placements: string[];
  /** the placement of panel (b) and of Appendix F's line (the asked one if measured, else the first) */
  placement: string | null;
  grad: GradSeries[];
  appendixF: FPt[];
  factors: Record<FactorKind, FPt[]>;
  /** Appendix F's per-layer factor √(2/3) */
  appendixFactor: number;
  gradDomain: [number, number];
  factorDomain: [number, number];
}

const EMPTY: DepthFactorsChart = {
  L: 0,
  layers: [],
  placements: [],
  placement: null,
  grad: [],
  appendixF: [],
  factors: { norm: [], residual: [], layer: [] },
  appendixFactor: Math.sqrt(2 / 3),
  gradDomain: [0.01, 1],
  factorDomain: [0.5, 1.5],
};

export function depthFactorsChart(doc: DepthFactorsResult | null, want: string): DepthFactorsChart {
  if (!doc?.placements) return EMPTY;
  const placements = PLACEMENTS.filter((p) => doc.placements[p]) as string[];
  if (!placements.length) return EMPTY;
  const placement = placements.includes(want) ? want : placements[0];
  const grad = placements.map((p) => {
    const w = doc.placements[p].W2_per_batch;
    return {
      placement: p,
      grad: w.mean.map((y, i) => {
        const sd = w.std[i];
        const ok = Number.isFinite(sd) && y - sd > 0;
        return { x: i + 1, y, lo: ok ? y - sd : undefined, hi: Number.isFinite(sd) ? y + sd : undefined };
      }),
    };
  });
  const P = doc.placements[placement];
  const appendixF = P.appendix_f_W2_per_batch.map((y, i) => ({ x: i + 1, y }));
  const factors: Record<FactorKind, FPt[]> = {
    norm: P.factors.map((f) => ({ x: f.layer, y: f.attention.norm_factor.mean * f.ffn.norm_factor.mean })),
    residual: P.factors.map((f) => ({ x: f.layer, y: f.attention.residual_factor.mean * f.ffn.residual_factor.mean })),
    layer: P.factors.map((f) => {
      const { mean: y, std: sd } = f.layer_factor;
      return { x: f.layer, y, lo: Number.isFinite(sd) ? y - sd : undefined, hi: Number.isFinite(sd) ? y + sd : undefined };
    }),
  };
  const L = doc.layers;
  const gv = [...grad.flatMap((s) => s.grad.flatMap((q) => [q.y, q.lo ?? q.y, q.hi ?? q.y])), ...appendixF.map((q) => q.y)].filter((y) => y > 0);
  const appendixFactor = doc.appendix_f_layer_factor;
  const fv = [...FACTOR_KINDS.flatMap((k) => factors[k].flatMap((q) => [q.y, q.lo ?? q.y, q.hi ?? q.y])), 1, appendixFactor].filter(Number.isFinite);
  return {
    L,
    layers: Array.from({ length: L }, (_, i) => i + 1),
    placements,
    placement,
    grad,
    appendixF,
    factors,
    appendixFactor,
    gradDomain: gv.length ? [Math.min(...gv) / 1.5, Math.max(...gv) * 1.5] : EMPTY.gradDomain,
    factorDomain: [Math.min(...fv) * 0.92, Math.max(...fv) * 1.06],
  };
}

/** The point at layer l of a series, or undefined. */
export const at = (pts: FPt[] | undefined, l: number) => pts?.find((q) => q.x === l);

/** Layer ticks: every layer up to 12, else about eight evenly spaced ones (first and last included). */
export const layerTicks = (L: number): number[] => evenlySpaced(L, 8, 12);

/** What the reference (precomputed) document adds to the chart while a live run is drawn: its
 *  lines, muted, and the axes holding both. */
export interface DepthFactorsReference {
  /** the reference's W² gradient per layer, every placement it measured (panel a) */
  grad: GradSeries[];
  /** its factors for the live chart's placement; empty where it did not measure that placement */
  factors: Record<FactorKind, FPt[]>;
  L: number;
  layerTicks: number[];
  xDomain: Domain;
  gradDomain: Domain;
  factorDomain: Domain;
}

/**
 * The reference `ref` (the precomputed chart, for the same placement) drawn muted under chart `c`:
 * its lines (not its spreads nor its Appendix F line) and axes over both: layers 1…the deeper of the
 * two, values of both, padded as a chart of its own is. No reference: nothing added, `c`'s own axes.
 */
export function depthFactorsReference(c: DepthFactorsChart, ref: DepthFactorsChart | null): DepthFactorsReference {
  const own = (L: number) => ({ L, layerTicks: layerTicks(L), xDomain: (L ? [0.5, L + 0.5] : [0, 1]) as Domain });
  if (!ref?.placements.length)
    return { grad: [], factors: { norm: [], residual: [], layer: [] }, ...own(c.L), gradDomain: c.gradDomain, factorDomain: c.factorDomain };
  const live = c.placements.length > 0;
  const factors = ref.placement === c.placement || !live ? ref.factors : { norm: [], residual: [], layer: [] };
  const g = extentOf(
    ref.grad.flatMap((s) => s.grad.map((q) => q.y)),
    true,
  );
  const f = extentOf(FACTOR_KINDS.flatMap((k) => factors[k].map((q) => q.y)));
  return {
    grad: ref.grad,
    factors,
    ...own(Math.max(c.L, ref.L)),
    gradDomain: unionDomain([live ? c.gradDomain : null, g && [g[0] / 1.5, g[1] * 1.5]], { log: true, fallback: c.gradDomain }),
    factorDomain: unionDomain([live ? c.factorDomain : null, f && [f[0] * 0.92, f[1] * 1.06]], { fallback: c.factorDomain }),
  };
}
