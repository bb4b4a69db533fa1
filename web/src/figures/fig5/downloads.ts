// fig5/downloads.ts — what Figure F (`fig5`)'s CSV and JSON downloads hold. Pure.
// The table is long (one row per drawn value): placement, depth, mean, std, and the placement's
// log–log slope; the JSON is the drawn document's placements with its config and engine.
import type { OutputSensitivityResult } from '../../experiments/output-sensitivity';
import type { Cell, Table } from '../../lib/export';
import { sensitivityChart } from './transform';

export function fig5Table(doc: OutputSensitivityResult | null): Table {
  const columns = ['placement', 'layers', 'dlogits2_mean', 'dlogits2_std', 'slope'];
  const rows: Cell[][] = sensitivityChart(doc).series.flatMap((s) => s.points.map((p) => [s.placement, p.x, p.y, p.std ?? null, s.slope]));
  return { columns, rows };
}

export function fig5Json(doc: OutputSensitivityResult | null, perturbation: string) {
  return { perturbation, config: doc?.config ?? null, engine: doc?.engine ?? null, placements: doc?.placements ?? null };
}
