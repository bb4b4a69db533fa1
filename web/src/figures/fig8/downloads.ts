// fig8/downloads.ts — what Figure H (`fig8`)'s CSV and JSON downloads hold. Pure.
// Long table: one row per group of the document (placement, optimizer, warm-up, peak lr) with its
// escape step (empty: never) and the seeds that ran to the end.
import type { WarmupLengthResult } from '../../experiments/warmup-length';
import type { Cell, Table } from '../../lib/export';

export function fig8Table(doc: WarmupLengthResult | null): Table {
  const columns = ['placement', 'optimizer', 'warmup', 'lr', 'escape_step', 'seeds_ok'];
  const rows: Cell[][] = (doc?.groups ?? []).map((g) => [g.placement, g.optimizer, g.warmup, g.lr, g.escape_step, g.seeds_ok]);
  return { columns, rows };
}

export function fig8Json(doc: WarmupLengthResult | null, lr: string) {
  return { drawn_lr: lr, config: doc?.config ?? null, engine: doc?.engine ?? null, plateau_entropy: doc?.plateau_entropy ?? null, groups: doc?.groups ?? null };
}
