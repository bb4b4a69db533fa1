// fig9/transform.ts — plateau-share document → Figure I (`fig9`)'s heat maps. Pure functions.
// One panel per run (placement × warm-up, in the document's order): x is the recording (index; its
// step as the tick label), y the layer 1…L, each cell the token-specific share of the residual
// stream after that layer at that step, s = 1 − ‖mean over tokens of h‖² / mean over tokens of ‖h‖².
import type { PlateauShareResult } from '../../experiments/plateau-share';

export interface ShareCell {
  x: number;
  y: number;
  v: number;
}
export interface SharePanel {
  placement: string;
  warmup: number;
  status: string;
  at: number[];
  layers: number;
  cells: ShareCell[];
  endLoss: number | null;
}

export function sharePanels(doc: PlateauShareResult | null): SharePanel[] {
  return (doc?.runs ?? []).map((r) => {
    const layers = Math.max(0, ...r.share.map((row) => row.length));
    const cells = r.share.flatMap((row, x) => row.map((v, l) => ({ x, y: l + 1, v: v ?? NaN })));
    return { placement: r.placement, warmup: r.warmup, status: r.status, at: r.at, layers, cells, endLoss: r.loss.length ? r.loss[r.loss.length - 1] : null };
  });
}

/** About `n` tick positions (recording indices) spread over a panel, the first and the last among them. */
export function recordingTicks(count: number, n = 5): number[] {
  if (count <= 0) return [];
  if (count <= n) return Array.from({ length: count }, (_, i) => i);
  const out = new Set<number>();
  for (let k = 0; k < n; k++) out.add(Math.round((k * (count - 1)) / (n - 1)));
  return [...out];
}

/** The cell of a panel at recording x and layer y, or undefined. */
export const cellAt = (p: SharePanel | undefined, x: number, y: number) => p?.cells.find((c) => c.x === x && c.y === y);

/** A panel's layer ticks: the first, the last and every even layer. */
export function layerTicks(layers: number): number[] {
  return Array.from({ length: layers }, (_, k) => k + 1).filter((k) => k === 1 || k === layers || k % 2 === 0);
}

/** The panels of the reference (precomputed) document, drawn as a muted row of their own while a
 *  live run is drawn (heat maps cannot be laid over each other); none without a reference. */
export const referencePanels = (ref: PlateauShareResult | null): SharePanel[] => (ref ? sharePanels(ref) : []);
