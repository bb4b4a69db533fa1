// fig19/downloads.ts — what fig19's CSV and JSON downloads hold. Pure.
// Long table: one row per (language, placement, warm-up, seed, step) with the training loss, and the
// validation loss at the steps where it was measured (empty elsewhere); the JSON adds each text's
// length, hash and unigram entropy, each group's escape step and final validation loss, and the
// config and engine.
import type { RealTextResult } from '../../experiments/real-text';
import type { Cell, Table } from '../../lib/export';

export function fig19Table(doc: RealTextResult | null): Table {
  const columns = ['lang', 'placement', 'warmup', 'seed', 'step', 'train_loss', 'val_loss'];
  const rows: Cell[][] = [];
  for (const r of doc?.runs ?? []) {
    const val = new Map(r.val_step.map((s, i) => [s, r.val_loss[i]]));
    r.loss.forEach((l, i) => rows.push([r.lang, r.placement, r.warmup, r.seed, i + 1, l, val.get(i + 1) ?? null]));
  }
  return { columns, rows };
}

export function fig19Json(doc: RealTextResult | null) {
  return {
    config: doc?.config ?? null,
    engine: doc?.engine ?? null,
    texts: doc?.texts ?? [],
    groups: doc?.groups ?? [],
    runs: (doc?.runs ?? []).map(({ loss, ...r }) => ({ ...r, train_loss: loss })),
  };
}
