// fig10/downloads.ts — what Figure E (`fig10`)'s CSV and JSON downloads hold. Pure.
// Long table: one row per (placement, depth) with η*, its near-best range, the largest useful η,
// the seed-mean loss at η = 0, and the mean
// one-layer ‖Δlogits‖².
import type { StepSizeResult } from '../../experiments/step-size';
import type { Cell, Table } from '../../lib/export';

export function fig10Table(doc: StepSizeResult | null): Table {
  const columns = ['placement', 'layers', 'eta_star', 'eta_near_best_lo', 'eta_near_best_hi', 'eta_max_useful', 'loss0', 'mean_layer_dlogits2'];
  const rows: Cell[][] = [];
  for (const [p, cells] of Object.entries(doc?.placements ?? {}))
    for (const c of cells) {
      const m = c.layer_dlogits2.reduce((a, d) => a + d.mean, 0) / Math.max(1, c.layer_dlogits2.length);
      rows.push([p, c.layers, c.eta_star_of_mean, c.eta_near_best?.[0], c.eta_near_best?.[1], c.eta_max_useful, c.loss0?.mean, m]);
    }
  return { columns, rows };
}

export function fig10Json(doc: StepSizeResult | null) {
  return { config: doc?.config ?? null, engine: doc?.engine ?? null, placements: doc?.placements ?? null };
}
