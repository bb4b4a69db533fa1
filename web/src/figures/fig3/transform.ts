// fig3/transform.ts — probe result → the three panels of Figure 3. Pure functions.
// (The live-run settings Figure 3 edits are lib/probe-settings.ts; its URL parameters index.ts.)
//   (a) per-layer W² gradient, Post vs Pre, mean ± std (statistic: paper W2_per_layer or W2_per_batch)
//   (b) ‖x_l‖²/d per layer, both placements, with the Lemma 2 band
//   (c) last layer's W² gradient vs depth: per-batch (solid), paper (dashed), 1/√L extrapolation of
//       Pre-LN from the shallowest depth (dotted)
import { probeDepths, type MeanStdArr, type ProbeResult } from '../../engine/documents';

export type Stat = 'W2_per_layer' | 'W2_per_batch';
export type NormKey = 'post' | 'pre';
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

export function panelA(P: ProbeResult | null, stat: Stat) {
  const post = layerPoints(P?.post?.[stat]);
  const pre = layerPoints(P?.pre?.[stat]);
  const L = Math.max(post.length, pre.length);
  return { post, pre, L, yDomain: yExtent([...post, ...pre]) };
}

export function panelB(P: ProbeResult | null) {
  const post = layerPoints(P?.post?.norm2_over_d);
  const pre = layerPoints(P?.pre?.norm2_over_d);
  const b = P?.pre?.lemma2_band ?? P?.post?.lemma2_band;
  const band = (b?.lo ?? []).map((lo, i) => ({ x: i + 1, lo, hi: b!.hi[i] }));
  const L = Math.max(post.length, pre.length);
  const ext = yExtent([...post, ...pre, ...band.map((p) => ({ x: p.x, y: p.hi }))]);
  return { post, pre, band, L, yDomain: ext };
}

export function panelC(P: ProbeResult | null) {
  const depths = probeDepths(P);
  const pick = (n: NormKey, stat: Stat): Pt[] =>
    depths.map((L) => {
      const v = P?.[n]?.lastW2_vs_L?.[String(L)]?.[stat];
      const y = v?.mean ?? NaN;
      const sd = v?.std;
      const ok = sd != null && Number.isFinite(sd);
      return { x: L, y, std: ok ? sd : undefined, lo: ok ? y - sd! : undefined, hi: ok ? y + sd! : undefined };
    });
  const postBatch = pick('post', 'W2_per_batch');
  const preBatch = pick('pre', 'W2_per_batch');
  const postPaper = pick('post', 'W2_per_layer');
  const prePaper = pick('pre', 'W2_per_layer');
  const L0 = depths[0];
  const y0 = preBatch[0]?.y;
  const extrap: Pt[] =
    L0 != null && Number.isFinite(y0) ? depths.map((L) => ({ x: L, y: y0 * Math.sqrt(L0 / L) })) : [];
  const all = [...postBatch, ...preBatch, ...postPaper, ...prePaper, ...extrap];
  const xDomain: [number, number] = depths.length
    ? [depths[0] - 1, depths[depths.length - 1] + 1]
    : [0, 1];
  return { depths, postBatch, preBatch, postPaper, prePaper, extrap, xDomain, yDomain: yExtent(all) };
}

// ---- interaction --------------------------------------------------------------------------------
/** The depths the live-run form offers as checkboxes (plus any the current settings hold). */
export const DEPTH_CHOICES = [6, 8, 10, 12, 14] as const;

/** Nearest value in `xs` to `x` (for hover), or null. */
export function nearest(xs: readonly number[], x: number): number | null {
  let best: number | null = null;
  for (const v of xs) if (best == null || Math.abs(v - x) < Math.abs(best - x)) best = v;
  return best;
}
