// fig6/downloads.ts — what Figure A (`fig6`)'s CSV and JSON downloads hold. Pure.
// The table is long: one row per (variant, placement, depth) of the document, with the last
// layer's W² gradient (per batch, mean and std), the probability of the current token, and Pre-LN's
// slope; the JSON names the drawn variant.
import type { TiedOutputResult } from '../../experiments/tied-output';
import type { Cell, Table } from '../../lib/export';

export function fig6Table(doc: TiedOutputResult | null): Table {
  const columns = ['output', 'input_scale', 'placement', 'layers', 'W2_per_batch_mean', 'W2_per_batch_std', 'p_current_mean', 'slope_per_batch'];
  const rows: Cell[][] = [];
  for (const v of doc?.variants ?? [])
    for (const [placement, s] of Object.entries(v.placements))
      for (const d of s.depths)
        rows.push([v.output, v.input_scale, placement, d.layers, d.W2_per_batch?.mean, d.W2_per_batch?.std, d.p_current?.mean, s.slope_per_batch]);
  return { columns, rows };
}

export function fig6Json(doc: TiedOutputResult | null, drawn: { output: string; input: string }) {
  return { drawn, config: doc?.config ?? null, engine: doc?.engine ?? null, uniform_p: doc?.uniform_p ?? null, variants: doc?.variants ?? null };
}
