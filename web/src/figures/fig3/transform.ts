// fig3/transform.ts — probe result → the three panels of Figure 3, and the live-run settings.
// Pure functions.
//   (a) per-layer W² gradient, Post vs Pre, mean ± std (statistic: paper W2_per_layer or W2_per_batch)
//   (b) ‖x_l‖²/d per layer, both placements, with the Lemma 2 band
//   (c) last layer's W² gradient vs depth: per-batch (solid), paper (dashed), 1/√L extrapolation of
//       Pre-LN from the shallowest depth (dotted)
import { probeDepths, type MeanStdArr, type ProbeConfig, type ProbeResult } from '../../engine/documents';

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

// ---- live-run settings ------------------------------------------------------------------------
export const DEPTH_CHOICES = [6, 8, 10, 12, 14] as const;

export interface ProbeControls {
  seeds: number;
  batches: number;
  depths: number[];
  small: boolean;
}

/** The tests' and phones' fast preset. */
export const SMALL_MODEL = { layers: 6, d: 64, d_ff: 128, vocab: 100, seq: 16, batch: 4 } as const;
export const SMALL_PRESET: ProbeControls = { seeds: 2, batches: 2, depths: [2, 4], small: true };

export type ProbeField = 'seeds' | 'batches' | 'depths';

/** Field → error key (figure text) for out-of-range settings; empty when valid. */
export function validateProbe(c: ProbeControls): Partial<Record<ProbeField, string>> {
  const e: Partial<Record<ProbeField, string>> = {};
  const int = (v: number, lo: number, hi: number) => Number.isInteger(v) && v >= lo && v <= hi;
  if (!int(c.seeds, 1, 5)) e.seeds = 'err.seeds';
  if (!int(c.batches, 1, 20)) e.batches = 'err.batches';
  if (!c.depths.length || c.depths.some((d) => !int(d, 1, 48))) e.depths = 'err.depths';
  return e;
}

/** The engine config for a live run; model keys from `base` (the drawn result) unless small. */
export function probeConfig(c: ProbeControls, base: Partial<ProbeConfig> | null): Partial<ProbeConfig> {
  const model = c.small
    ? SMALL_MODEL
    : {
        layers: base?.layers ?? 6,
        d: base?.d ?? 512,
        d_ff: base?.d_ff ?? 1024,
        vocab: base?.vocab ?? 1000,
        seq: base?.seq ?? 32,
        batch: base?.batch ?? 8,
      };
  const depths = [...new Set(c.depths)].sort((a, b) => a - b);
  return {
    ...model,
    seeds: c.seeds,
    batches: c.batches,
    depth_batches: Math.max(1, Math.round(c.batches / 2)),
    depths,
  };
}

/** Nearest value in `xs` to `x` (for hover), or null. */
export function nearest(xs: readonly number[], x: number): number | null {
  let best: number | null = null;
  for (const v of xs) if (best == null || Math.abs(v - x) < Math.abs(best - x)) best = v;
  return best;
}
