// fig12/downloads.ts — what the sharpness figure's (`fig12`) CSV and JSON downloads hold. Pure.
// Long table: one row per (run, measured step) with λ_max(P⁻¹H), the threshold, their ratio, the
// step's lr, the Lanczos products, whether the estimate converged and the finite-difference step it
// used; the JSON adds the loss curves.
import type { SharpnessResult } from '../../experiments/sharpness';
import type { Cell, Table } from '../../lib/export';

export function fig12Table(doc: SharpnessResult | null): Table {
  const columns = ['placement', 'optimizer', 'warmup', 'seed', 'step', 'sharpness', 'threshold', 'ratio', 'lr', 'products', 'converged', 'fd_step'];
  const rows: Cell[][] = [];
  for (const r of doc?.runs ?? [])
    r.steps.forEach((t, i) =>
      rows.push([
        r.placement,
        r.optimizer,
        r.warmup,
        r.seed,
        t,
        r.sharpness[i],
        r.threshold[i],
        r.sharpness[i] / r.threshold[i],
        r.lr[i],
        r.iterations[i],
        r.converged[i],
        r.fd_step[i],
      ]),
    );
  return { columns, rows };
}

export function fig12Json(doc: SharpnessResult | null) {
  return {
    config: doc?.config ?? null,
    engine: doc?.engine ?? null,
    losses: (doc?.runs ?? []).map((r) => ({ placement: r.placement, optimizer: r.optimizer, warmup: r.warmup, seed: r.seed, status: r.status, loss: r.loss })),
  };
}
