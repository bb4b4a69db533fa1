// fig9/downloads.ts — what Figure I (`fig9`)'s CSV and JSON downloads hold. Pure.
// Long table: one row per cell (placement, warm-up, step, layer, share).
import type { PlateauShareResult } from '../../experiments/plateau-share';
import type { Cell, Table } from '../../lib/export';

export function fig9Table(doc: PlateauShareResult | null): Table {
  const columns = ['placement', 'warmup', 'step', 'layer', 'share'];
  const rows: Cell[][] = [];
  for (const r of doc?.runs ?? []) r.share.forEach((row, i) => row.forEach((v, l) => rows.push([r.placement, r.warmup, r.at[i], l + 1, v])));
  return { columns, rows };
}

export function fig9Json(doc: PlateauShareResult | null) {
  return { config: doc?.config ?? null, engine: doc?.engine ?? null, plateau_entropy: doc?.plateau_entropy ?? null, runs: doc?.runs ?? null };
}
