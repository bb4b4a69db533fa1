// fig3/transform.ts — probe result → the three panels of Figure 3. Pure functions.
// (The live-run settings Figure 3 edits are lib/probe-settings.ts; its URL parameters index.ts.)
// Every panel has one series per placement the probe measured (engine order):
//   (a) per-layer W² gradient, mean ± std (statistic: paper W2_per_layer or W2_per_batch)
//   (b) ‖x_l‖²/d per layer, with the Lemma 2 band
//   (c) last layer's W² gradient vs depth: per-batch (solid), paper (dashed), 1/√L extrapolation of
//       Pre-LN from the shallowest depth (dotted)
import { probeDepths, probePlacements, type MeanStdArr, type PlacementName, type ProbeResult, type ProbeStats } from '../../engine/documents';

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
  const pick = (stat: Stat) => (s: ProbeStats): Pt[] =>
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
  const extrap: Pt[] =
    L0 != null && y0 != null && Number.isFinite(y0) ? depths.map((L) => ({ x: L, y: y0 * Math.sqrt(L0 / L) })) : [];
  const all = [...batch, ...paper].flatMap((s) => s.points).concat(extrap);
  const xDomain: [number, number] = depths.length ? [depths[0] - 1, depths[depths.length - 1] + 1] : [0, 1];
  return { depths, batch, paper, extrap, xDomain, yDomain: yExtent(all) };
}

/** A series' point at x (a layer or a depth), or undefined. */
export const pointAt = (s: PlacementSeries | undefined, x: number): Pt | undefined => s?.points.find((p) => p.x === x);

// ---- interaction --------------------------------------------------------------------------------
/** The depths the live-run form offers as checkboxes (plus any the current settings hold). */
export const DEPTH_CHOICES = [6, 8, 10, 12, 14] as const;

export { nearest } from '../../lib/axis';
