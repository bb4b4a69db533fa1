// fig4/downloads.ts — what Figure 4's CSV and JSON downloads hold. Pure.
// The table is "long": every finite step of every run, then the drawn seed-mean curves (seed
// "mean"). Steps after a run stopped (status nan/diverged) never appear.
//   columns: placement, warmup, peak_lr, seed, step, loss, grad_norm, lr, status, stop_step
import { seedMean, type GridResult } from '../../engine/documents';
import type { Cell, Table } from '../../lib/export';

export function fig4Table(G: GridResult | null): Table {
  const columns = ['placement', 'warmup', 'peak_lr', 'seed', 'step', 'loss', 'grad_norm', 'lr', 'status', 'stop_step'];
  const rows: Cell[][] = [];
  if (!G?.runs) return { columns, rows };
  for (const r of G.runs)
    r.loss.forEach((loss, i) => {
      if (Number.isFinite(loss)) rows.push([r.placement, r.warmup, r.lr, r.seed, i + 1, loss, r.grad_norm?.[i], r.lr_schedule?.[i], r.status, r.stop_step]);
    });
  // the drawn seed-mean curves: defined only while every seed has a loss
  const keys = [...new Set(G.runs.map((r) => `${r.placement}|${r.warmup}|${r.lr}`))];
  for (const k of keys) {
    const runs = G.runs.filter((r) => `${r.placement}|${r.warmup}|${r.lr}` === k);
    const stopped = runs.find((r) => r.status === 'nan' || r.status === 'diverged');
    seedMean(runs).forEach((loss, i) => {
      if (Number.isFinite(loss))
        rows.push([
          runs[0].placement,
          runs[0].warmup,
          runs[0].lr,
          'mean',
          i + 1,
          loss,
          null,
          runs[0].lr_schedule?.[i],
          stopped ? stopped.status : runs.every((r) => r.status === 'ok') ? 'ok' : 'running',
          stopped?.stop_step ?? null,
        ]);
    });
  }
  return { columns, rows };
}

export const fig4Json = (G: GridResult | null) => ({ grid: G });
