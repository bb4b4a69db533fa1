// fig20/downloads.ts — what fig20's CSV and JSON downloads hold. Pure.
// Long table: one row per (placement, warm-up, seed, weight group, step) with the step's angle (radians,
// as the engine measured it, and degrees) and its relative update ‖ΔW‖/‖W‖; the JSON adds the loss
// curves, the config and the engine.
import type { AngularUpdateResult } from '../../experiments/angular-update';
import type { Cell, Table } from '../../lib/export';

export function fig20Table(doc: AngularUpdateResult | null): Table {
  const columns = ['placement', 'warmup', 'seed', 'group', 'step', 'angle_rad', 'angle_deg', 'relative'];
  const rows: Cell[][] = [];
  for (const r of doc?.runs ?? [])
    r.angle.forEach((row, g) =>
      row.forEach((a, i) => rows.push([r.placement, r.warmup, r.seed, doc?.groups[g] ?? g, i + 1, a, (a * 180) / Math.PI, r.relative[g]?.[i] ?? null])),
    );
  return { columns, rows };
}

export function fig20Json(doc: AngularUpdateResult | null) {
  return {
    config: doc?.config ?? null,
    engine: doc?.engine ?? null,
    losses: (doc?.runs ?? []).map((r) => ({ placement: r.placement, warmup: r.warmup, seed: r.seed, status: r.status, loss: r.loss })),
  };
}
