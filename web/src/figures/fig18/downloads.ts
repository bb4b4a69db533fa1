// fig18/downloads.ts — what fig18's CSV and JSON downloads hold. Pure.
// Long table: one row per (placement, lr, seed) run with its ℓ₀, final loss (empty when the trainer
// stopped it), the capped loss min(final, ℓ₀), its status and its largest attention logit over the
// recorded steps; the JSON adds per placement ℓ₀, the best loss and lr and the LR sensitivity, each
// run's largest logit per recorded step, and the config and engine.
import type { LrSensitivityResult } from '../../experiments/lr-sensitivity';
import type { Cell, Table } from '../../lib/export';

const peak = (xs: readonly (number | null)[]) => Math.max(0, ...xs.filter((x): x is number => x != null && Number.isFinite(x)));

export function fig18Table(doc: LrSensitivityResult | null): Table {
  const columns = ['placement', 'lr', 'seed', 'status', 'loss0', 'final_loss', 'capped_loss', 'max_logit'];
  const rows: Cell[][] = (doc?.runs ?? []).map((r) => [
    r.placement,
    r.lr,
    r.seed,
    r.status,
    r.loss0,
    r.final_loss ?? null,
    r.final_loss != null && Number.isFinite(r.final_loss) ? Math.min(r.final_loss, r.loss0) : r.loss0,
    peak(r.max_logit),
  ]);
  return { columns, rows };
}

export function fig18Json(doc: LrSensitivityResult | null) {
  const placements = (doc?.placements ?? []).map((p) => ({
    placement: p.placement,
    loss0: p.loss0,
    best_loss: p.best_loss,
    best_lr: p.best_lr,
    sensitivity: p.sensitivity,
    sensitivity_per_seed: p.sensitivity_per_seed,
  }));
  const runs = (doc?.runs ?? []).map((r) => ({ placement: r.placement, lr: r.lr, seed: r.seed, status: r.status, steps: r.at, max_logit: r.max_logit }));
  return { config: doc?.config ?? null, engine: doc?.engine ?? null, placements, runs };
}
