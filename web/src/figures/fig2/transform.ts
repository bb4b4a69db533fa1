// fig2/transform.ts — probe result → the Pre-LN layer stack of Figure 2. Pure functions.
//
// The stack has L layer slabs (bottom = layer 1) and the Final LN on top. A slab's width is
// proportional to √(‖x_l‖²/d), the residual stream's length, so the stream visibly thickens; the
// Final LN's output has ‖·‖²/d = 1 by construction. Widths are normalised to the widest slab.
import type { ProbeResult } from '../../engine/documents';

export interface Slab {
  /** 0-based position in the stack, bottom first */
  index: number;
  kind: 'layer' | 'final';
  /** 1-based layer number (L+1 for the Final LN) */
  layer: number;
  /** measured ‖x_l‖²/d (mean over seeds); 1 for the Final LN's output */
  norm2: number | null;
  std: number | null;
  lo: number | null;
  hi: number | null;
  /** width as a fraction of the widest slab, in [minFrac, 1] */
  widthFrac: number;
}

export interface Stack {
  slabs: Slab[];
  L: number;
  /** √d/‖x_L‖, mean and std over seeds */
  gain: { mean: number; std: number } | null;
}

export const MIN_FRAC = 0.3;

/** Pre-LN's ‖x_l‖²/d per layer in a probe (mean over seeds); empty without Pre-LN. */
const norms = (P: ProbeResult | null): number[] => P?.placements?.pre?.norm2_over_d.mean ?? [];

/**
 * `P`'s stack. The widths are normalised to the widest slab of `P` and of `other`, the document
 * drawn with it (the reference under a live run, or that run over the reference), so that one
 * width is one length in both; without `other`, to `P`'s own widest.
 */
export function buildStack(P: ProbeResult | null, other: ProbeResult | null = null): Stack {
  const pre = P?.placements?.pre; // Figure 2 is Pre-LN's residual stream (Lemma 2) and its final LN
  if (!pre) return { slabs: [], L: 0, gain: null };
  const m = pre.norm2_over_d.mean ?? [];
  const s = pre.norm2_over_d.std ?? [];
  const L = m.length;
  const maxRoot = Math.sqrt(Math.max(1, ...m.filter(Number.isFinite), ...norms(other).filter(Number.isFinite)));
  const frac = (v: number) => Math.max(MIN_FRAC, Math.min(1, Math.sqrt(Math.max(0, v)) / maxRoot));
  const slabs: Slab[] = m.map((v, i) => ({
    index: i,
    kind: 'layer',
    layer: i + 1,
    norm2: Number.isFinite(v) ? v : null,
    std: Number.isFinite(s[i]) ? s[i] : null,
    lo: pre.lemma2_band?.lo?.[i] ?? null,
    hi: pre.lemma2_band?.hi?.[i] ?? null,
    widthFrac: Number.isFinite(v) ? frac(v) : MIN_FRAC,
  }));
  slabs.push({ index: L, kind: 'final', layer: L + 1, norm2: 1, std: 0, lo: null, hi: null, widthFrac: frac(1) });
  const g = pre.final_ln_gain;
  return { slabs, L, gain: g && Number.isFinite(g.mean) ? { mean: g.mean, std: g.std } : null };
}

/** Keyboard: ArrowUp/Right move up the stack, ArrowDown/Left down, Home/End to the ends. */
export function stepSelection(current: number, key: string, count: number): number {
  if (count <= 0) return 0;
  const clamp = (i: number) => Math.max(0, Math.min(count - 1, i));
  switch (key) {
    case 'ArrowUp':
    case 'ArrowRight':
      return clamp(current + 1);
    case 'ArrowDown':
    case 'ArrowLeft':
      return clamp(current - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return clamp(current);
  }
}

/**
 * Which slab a pointer at `y` (px from the top of the stack area of height `h`) points at.
 * Slabs are evenly spaced, index 0 at the bottom.
 */
export function slabAt(y: number, h: number, count: number): number {
  if (count <= 0 || h <= 0) return 0;
  const fromBottom = (h - y) / h;
  return Math.max(0, Math.min(count - 1, Math.floor(fromBottom * count)));
}
