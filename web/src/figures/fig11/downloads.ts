// fig11/downloads.ts — what Figure B (`fig11`)'s CSV and JSON downloads hold. Pure.
// Long table: one row per (placement, layer) with both W² statistics, Appendix F's prediction,
// and the layer's factors (norms, residual Jacobians, whole).
import type { DepthFactorsResult } from '../../experiments/depth-factors';
import type { Cell, Table } from '../../lib/export';

export function fig11Table(doc: DepthFactorsResult | null): Table {
  const columns = ['placement', 'layer', 'W2_per_batch', 'W2_per_layer', 'appendix_f_W2_per_batch', 'norm_factor', 'residual_factor', 'layer_factor'];
  const rows: Cell[][] = [];
  for (const [p, q] of Object.entries(doc?.placements ?? {}))
    q.factors.forEach((f, i) =>
      rows.push([
        p,
        f.layer,
        q.W2_per_batch.mean[i],
        q.W2_per_layer.mean[i],
        q.appendix_f_W2_per_batch[i],
        f.attention.norm_factor.mean * f.ffn.norm_factor.mean,
        f.attention.residual_factor.mean * f.ffn.residual_factor.mean,
        f.layer_factor.mean,
      ]),
    );
  return { columns, rows };
}

export function fig11Json(doc: DepthFactorsResult | null, view: { placement: string }) {
  return { config: doc?.config ?? null, engine: doc?.engine ?? null, view, layers: doc?.layers ?? null, placements: doc?.placements ?? null };
}
