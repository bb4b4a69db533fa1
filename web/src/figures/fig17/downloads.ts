// fig17/downloads.ts — what fig17's CSV and JSON downloads hold. Pure.
// Long table: one row per (placement, optimizer, tensor) with the tensor's size, its step-1 gradient
// RMS, the share of its coordinates whose step-1 gradient is exactly 0, and its update RMS / lr at
// steps 1 and 2; the JSON adds each run's update RMS / lr per step, and the config and engine.
import type { AdamFirstStepResult } from '../../experiments/adam-first-step';
import type { Cell, Table } from '../../lib/export';

export function fig17Table(doc: AdamFirstStepResult | null): Table {
  const columns = [
    'placement',
    'optimizer',
    'tensor',
    'size',
    'grad_rms_step1',
    'zero_grad_share_step1',
    'update_rms_over_lr_step1',
    'update_rms_over_lr_step2',
  ];
  const rows: Cell[][] = [];
  for (const r of doc?.runs ?? [])
    for (const t of r.tensors) rows.push([r.placement, r.optimizer, t.name, t.size, t.grad_rms1, t.zero_grad_share1, t.step_over_lr[0], t.step_over_lr[1]]);
  return { columns, rows };
}

export function fig17Json(doc: AdamFirstStepResult | null) {
  const runs = (doc?.runs ?? []).map((r) => ({ placement: r.placement, optimizer: r.optimizer, status: r.status, update_rms_over_lr: r.update_rms }));
  return { config: doc?.config ?? null, engine: doc?.engine ?? null, runs };
}
