// fig3/downloads.ts — what Figure 3's CSV and JSON downloads hold. Pure.
// The table is "long": one row per drawn value with its coordinates, so it loads straight into a
// data frame; values that are not finite are absent or empty.
//   columns: panel, placement, x_name, x, statistic, mean, std
//   (a) W2_per_layer and W2_per_batch per layer; (b) norm2_over_d per layer and the Lemma 2 band;
//   (c) the last layer's W² gradient per depth and the 1/√L extrapolation
import { probeDepths, probePlacements, type ProbeResult } from '../../engine/documents';
import type { Cell, Table } from '../../lib/export';

export function fig3Table(P: ProbeResult | null): Table {
  const columns = ['panel', 'placement', 'x_name', 'x', 'statistic', 'mean', 'std'];
  const rows: Cell[][] = [];
  if (!P) return { columns, rows };
  const placements = probePlacements(P);
  for (const norm of placements) {
    const S = P.placements[norm];
    if (!S) continue;
    for (const stat of ['W2_per_layer', 'W2_per_batch'] as const)
      (S[stat]?.mean ?? []).forEach((y, i) => rows.push(['a', norm, 'layer', i + 1, stat, y, S[stat].std?.[i]]));
    (S.norm2_over_d?.mean ?? []).forEach((y, i) => rows.push(['b', norm, 'layer', i + 1, 'norm2_over_d', y, S.norm2_over_d.std?.[i]]));
  }
  const band = P.placements.pre?.lemma2_band;
  (band?.lo ?? []).forEach((lo, i) => {
    rows.push(['b', 'pre', 'layer', i + 1, 'lemma2_lo', lo, null]);
    rows.push(['b', 'pre', 'layer', i + 1, 'lemma2_hi', band!.hi[i], null]);
  });
  const depths = probeDepths(P);
  for (const norm of placements)
    for (const L of depths)
      for (const stat of ['W2_per_batch', 'W2_per_layer'] as const) {
        const v = P.placements[norm]?.lastW2_vs_L?.[String(L)]?.[stat];
        if (v) rows.push(['c', norm, 'depth', L, stat, v.mean, v.std]);
      }
  const L0 = depths[0];
  const y0 = P.placements.pre?.lastW2_vs_L?.[String(L0)]?.W2_per_batch?.mean;
  if (L0 != null && y0 != null && Number.isFinite(y0))
    for (const L of depths) rows.push(['c', 'pre', 'depth', L, 'extrapolation_1_over_sqrt_L', y0 * Math.sqrt(L0 / L), null]);
  return { columns, rows };
}

export const fig3Json = (P: ProbeResult | null, stat: string) => ({ statistic_shown: stat, probe: P });
