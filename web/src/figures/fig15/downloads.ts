// fig15/downloads.ts — what the trainability map's (`fig15`) CSV and JSON downloads hold, and the
// same for the two figures of claims 9 and 10, which draw slots of the same experiment. Pure.
// Long table: one row per run (placement, warm-up, depth, peak lr, seed) with its outcome, why it
// stopped, its escape step, stopping step and final loss, and its cell's outcome. The JSON: the
// document's settings, its thresholds and every cell with its runs and their curves.
import type { PhaseDiagramResult } from '../../experiments/phase-diagram';
import { docParts, type Cell, type Table } from '../../lib/export';

export function phaseRunsTable(doc: PhaseDiagramResult | null): Table {
  const columns = ['placement', 'warmup', 'layers', 'lr', 'seed', 'outcome', 'stopped', 'escape_step', 'stop_step', 'final_loss', 'cell_outcome'];
  const rows: Cell[][] = [];
  for (const c of doc?.cells ?? [])
    for (const r of c.runs)
      rows.push([c.placement, c.warmup, c.layers, c.lr, r.seed, r.outcome, r.stopped, r.escape_step, r.stop_step, r.final_loss, c.outcome]);
  return { columns, rows };
}

export const phaseJson = (doc: PhaseDiagramResult | null) =>
  docParts(doc, 'config', 'engine', 'plateau_entropy', 'uniform_loss', 'divergence_loss', 'escape', 'cells');

export const fig15Table = phaseRunsTable;
export const fig15Json = (doc: PhaseDiagramResult | null, placement: string) => ({ drawn_placement: placement, ...phaseJson(doc) });
