// fig2/downloads.ts — what Figure 2's CSV and JSON downloads hold. Pure.
// The table is "long" (one row per drawn value): one row per layer, then the Final LN with its gain.
//   columns: layer, norm2_over_d_mean, …_std, lemma2_lo, lemma2_hi, final_ln_gain_mean, …_std
// Values that are not finite print as empty cells (lib/export.ts).
import type { ProbeResult } from '../../engine/documents';
import type { Cell, Table } from '../../lib/export';

export function fig2Table(P: ProbeResult | null): Table {
  const columns = ['layer', 'norm2_over_d_mean', 'norm2_over_d_std', 'lemma2_lo', 'lemma2_hi', 'final_ln_gain_mean', 'final_ln_gain_std'];
  const pre = P?.placements?.pre;
  if (!pre) return { columns, rows: [] };
  const m = pre.norm2_over_d?.mean ?? [];
  const rows: Cell[][] = m.map((v, i) => [i + 1, v, pre.norm2_over_d?.std?.[i], pre.lemma2_band?.lo?.[i], pre.lemma2_band?.hi?.[i], null, null]);
  rows.push(['final', 1, 0, null, null, pre.final_ln_gain?.mean, pre.final_ln_gain?.std]);
  return { columns, rows };
}

export function fig2Json(P: ProbeResult | null, selected: number | 'final' | null) {
  const pre = P?.placements?.pre;
  return {
    selected_layer: selected,
    config: P?.config ?? null,
    engine: P?.engine ?? null,
    pre: pre ? { norm2_over_d: pre.norm2_over_d, final_ln_gain: pre.final_ln_gain, lemma2_band: pre.lemma2_band } : null,
  };
}
