// fig10/downloads.ts — what Figure D (`fig10`)'s CSV and JSON downloads hold. Pure.
// Long table: one row per (placement, depth) with η*, the seed-mean loss at η*, and the mean
// one-layer ‖Δlogits‖².
import type { StepSizeResult } from '../../experiments/step-size';
import type { Cell, Table } from '../../lib/export';

export function fig10Table(doc: StepSizeResult | null): Table {
  const columns = ['placement', 'layers', 'eta_star', 'loss0', 'mean_layer_dlogits2'];
  const rows: Cell[][] = [];
  for (const [p, cells] of Object.entries(doc?.placements ?? {}))
    for (const c of cells) {
      const m = c.layer_dlogits2.reduce((a, d) => a + d.mean, 0) / Math.max(1, c.layer_dlogits2.length);
      rows.push([p, c.layers, c.eta_star_of_mean, c.loss0?.mean, m]);
    }
  return { columns, rows };
}

export function fig10Json(doc: StepSizeResult | null) {
  return { config: doc?.config ?? null, engine: doc?.engine ?? null, placements: doc?.placements ?? null };
}
