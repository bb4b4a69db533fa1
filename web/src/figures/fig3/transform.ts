// fig3/transform.ts — probe result → the three panels of Figure 3. Pure functions.
// (The live-run settings Figure 3 shows are the probe's field table, lib/settings.ts.)
// Every panel has one series per placement the probe measured (engine order):
//   (a) per-layer W² gradient, mean ± std (statistic: paper W2_per_layer or W2_per_batch)
//   (b) ‖x_l‖²/d per layer, with the Lemma 2 band
//   (c) last layer's W² gradient vs depth: per-batch (solid), paper (dashed), 1/√L extrapolation of
//       Pre-LN from the shallowest depth (dotted)
import { probeDepths, probePlacements, type MeanStdArr, type PlacementName, type ProbeResult, type ProbeStats } from '../../engine/documents';
import { unionDomain, unionValues, type Domain } from '../../components/common/chart';

export type Stat = 'W2_per_layer' | 'W2_per_batch';
export interface Pt {
  x: number;
  y: number;
  lo?: number;
  hi?: number;
  std?: number;
}

const layerPoints = (s: MeanStdArr | undefined): Pt[] =>
  (s?.mean ?? []).map((y, i) => {
    const sd = s?.std?.[i];
    const ok = sd != null && Number.isFinite(sd);
    return { x: i + 1, y, std: ok ? sd : undefined, lo: ok ? y - sd : undefined, hi: ok ? y + sd : undefined };
  });

/** [0, max·1.1] over everything given (lo/hi included), never empty. */
export function yExtent(pts: Pt[], floor0 = true): [number, number] {
  const vals = pts.flatMap((p) => [p.y, p.hi ?? p.y, p.lo ?? p.y]).filter(Number.isFinite);
  if (!vals.length) return [0, 1];
  const hi = Math.max(...vals);
  const lo = floor0 ? 0 : Math.min(...vals);
  return [lo, hi > lo ? hi * 1.08 : lo + 1];
}

/** One placement's points in a panel. */
export interface PlacementSeries {
  placement: PlacementName;
  points: Pt[];
}

const perPlacement = (P: ProbeResult | null, f: (s: ProbeStats) => Pt[]): PlacementSeries[] =>
  probePlacements(P).map((placement) => ({ placement, points: f(P!.placements[placement]!) }));
const longest = (series: PlacementSeries[]) => Math.max(0, ...series.map((s) => s.points.length));

/** (a): the per-layer W² gradient of every placement in the probe. */
export function panelA(P: ProbeResult | null, stat: Stat) {
  const series = perPlacement(P, (s) => layerPoints(s[stat]));
  return { series, L: longest(series), yDomain: yExtent(series.flatMap((s) => s.points)) };
}

/** (b): ‖x_l‖²/d per layer, and the Lemma 2 band (l = 1…L). */
export function panelB(P: ProbeResult | null) {
  const series = perPlacement(P, (s) => layerPoints(s.norm2_over_d));
  const first = probePlacements(P)[0];
  const b = P?.placements?.pre?.lemma2_band ?? (first ? P?.placements?.[first]?.lemma2_band : undefined);
  const band = (b?.lo ?? []).map((lo, i) => ({ x: i + 1, lo, hi: b!.hi[i] }));
  const ext = yExtent([...series.flatMap((s) => s.points), ...band.map((p) => ({ x: p.x, y: p.hi }))]);
  return { series, band, L: longest(series), yDomain: ext };
}

/** (c): the last layer's W² gradient against depth, both statistics; Theorem 1's 1/√L from Pre-LN's
 *  shallowest depth where the probe has Pre-LN. */
export function panelC(P: ProbeResult | null) {
  const depths = probeDepths(P);
  const pick =
    (stat: Stat) =>
    (s: ProbeStats): Pt[] =>
      depths.map((L) => {
        const v = s.lastW2_vs_L?.[String(L)]?.[stat];
        const y = v?.mean ?? NaN;
        const sd = v?.std;
        const ok = sd != null && Number.isFinite(sd);
        return { x: L, y, std: ok ? sd : undefined, lo: ok ? y - sd! : undefined, hi: ok ? y + sd! : undefined };
      });
  const batch = perPlacement(P, pick('W2_per_batch'));
  const paper = perPlacement(P, pick('W2_per_layer'));
  const L0 = depths[0];
  const y0 = batch.find((s) => s.placement === 'pre')?.points[0]?.y;
  const extrap: Pt[] = L0 != null && y0 != null && Number.isFinite(y0) ? depths.map((L) => ({ x: L, y: y0 * Math.sqrt(L0 / L) })) : [];
  const all = [...batch, ...paper].flatMap((s) => s.points).concat(extrap);
  const xDomain: [number, number] = depths.length ? [depths[0] - 1, depths[depths.length - 1] + 1] : [0, 1];
  return { depths, batch, paper, extrap, xDomain, yDomain: yExtent(all) };
}

// ---- axes over the live result and the reference drawn muted under it -------------------------
/** The y extent the reference's muted lines need ([0, max·1.08], as yExtent; their ± std is not
 *  drawn), or null when they have no finite value. */
function refExtent(ref: readonly PlacementSeries[] | null): Domain | null {
  const pts = (ref ?? []).flatMap((s) => s.points.map((p) => ({ x: p.x, y: p.y })));
  return pts.some((p) => Number.isFinite(p.y)) ? yExtent(pts) : null;
}

/** The x ticks and domains of a panel. */
export interface PanelAxes {
  ticks: number[];
  xDomain: Domain;
  yDomain: Domain;
}

/**
 * Panel (a) or (b)'s axes with the reference's series `ref` drawn muted too: layers 1…the longer
 * of the two, y holding both (the panel's own band and spreads included). No reference: the
 * panel's own axes (layers 1…L, [0.5, L + 0.5]).
 */
export function layerAxes(p: { L: number; yDomain: Domain }, ref: readonly PlacementSeries[] | null): PanelAxes {
  const L = Math.max(p.L, longest([...(ref ?? [])]));
  const ry = refExtent(ref);
  return {
    ticks: Array.from({ length: L }, (_, i) => i + 1),
    xDomain: [0.5, L + 0.5],
    yDomain: ry ? unionDomain([p.L ? p.yDomain : null, ry], { fallback: p.yDomain }) : p.yDomain,
  };
}

/** Panel (c)'s axes with the reference's series `ref` drawn muted too: every depth of either (±1),
 *  y holding both. No reference: the panel's own axes. */
export function depthAxes(c: { depths: number[]; xDomain: Domain; yDomain: Domain }, ref: readonly PlacementSeries[] | null): PanelAxes {
  const refDepths = unionValues(...(ref ?? []).map((s) => s.points.map((p) => p.x)));
  if (!refDepths.length) return { ticks: c.depths, xDomain: c.xDomain, yDomain: c.yDomain };
  const live = c.depths.length > 0;
  const ry = refExtent(ref);
  return {
    ticks: unionValues(c.depths, refDepths),
    xDomain: unionDomain([live ? c.xDomain : null, [refDepths[0] - 1, refDepths[refDepths.length - 1] + 1]], { fallback: c.xDomain }),
    yDomain: unionDomain([live ? c.yDomain : null, ry], { fallback: c.yDomain }),
  };
}

/** A series' point at x (a layer or a depth), or undefined. */
export const pointAt = (s: PlacementSeries | undefined, x: number): Pt | undefined => s?.points.find((p) => p.x === x);

// ---- interaction --------------------------------------------------------------------------------
export { nearest } from '../../lib/axis';
