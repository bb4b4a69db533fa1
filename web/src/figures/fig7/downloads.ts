// fig7/downloads.ts — what Figure C (`fig7`)'s CSV and JSON downloads hold. Pure.
// Long table: one row per (placement, step) with the gradient norm, the update's RMS / lr and the
// step's lr; the JSON adds each placement's first-step loss change and the config and engine.
import type { AdamFirstStepResult } from '../../experiments/adam-first-step';
import { afsByPlacement } from '../../experiments/verdicts.js';
import type { Cell, Table } from '../../lib/export';

/** The document's runs of its first optimizer (Figure C's: Adam), by placement. */
const byPlacement = (doc: AdamFirstStepResult | null) => afsByPlacement(doc) as Record<string, AdamFirstStepResult['runs'][number]>;

export function fig7Table(doc: AdamFirstStepResult | null): Table {
  const columns = ['placement', 'step', 'grad_norm', 'update_rms_over_lr', 'lr'];
  const rows: Cell[][] = [];
  for (const [p, s] of Object.entries(byPlacement(doc))) s.update_rms.forEach((r, i) => rows.push([p, i + 1, s.grad_norm[i], r, s.lr_schedule?.[i]]));
  return { columns, rows };
}

export function fig7Json(doc: AdamFirstStepResult | null) {
  const first = Object.fromEntries(Object.entries(byPlacement(doc)).map(([p, s]) => [p, s.first_step]));
  return { config: doc?.config ?? null, engine: doc?.engine ?? null, first_step: first };
}
