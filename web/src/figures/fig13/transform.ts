// fig13/transform.ts — phase-diagram document (the `deepNorm` slot) → Figure of claim 10 (`fig13`):
// DeepNorm beside Post-LN and Pre-LN, without warm-up and with one, at Figure 4's toy. Pure
// functions. One panel per peak lr; one row per (placement, warm-up), the placements in the
// document's order, each without warm-up above with; on each row every seed's escape step from the
// plateau (x = step), or a marker in the "never" column past the run's end when it did not escape.
// Under a live run the reference's markers are drawn muted on the same rows (the rows of both).
import type { Domain } from '../../components/common/chart';
import { unionValues } from '../../components/common/chart';
import { phasePlacements, type PhaseCell, type PhaseDiagramResult } from '../../experiments/phase-diagram';

export interface RowKey {
  placement: string;
  warmup: number;
}
/** One document's cells at its first depth: its rows, lrs and run length. */
export interface EscapeDoc {
  rows: RowKey[];
  lrs: number[];
  steps: number;
  cells: PhaseCell[];
}
const NONE: EscapeDoc = { rows: [], lrs: [], steps: 0, cells: [] };

export function escapeDoc(doc: PhaseDiagramResult | null): EscapeDoc {
  if (!doc?.cells?.length) return NONE;
  const layers = Math.min(...doc.cells.map((c) => c.layers));
  const cells = doc.cells.filter((c) => c.layers === layers);
  const rows = phasePlacements(doc).flatMap((placement) =>
    unionValues(cells.filter((c) => c.placement === placement).map((c) => c.warmup)).map((warmup) => ({ placement, warmup })),
  );
  return { rows, lrs: unionValues(cells.map((c) => c.lr)), steps: Number(doc.config?.steps) || 0, cells };
}

export interface EscapeRow extends RowKey {
  /** the row's place on the y axis (the first row on top) */
  y: number;
  cell: PhaseCell | undefined;
  /** each seed's marker: its escape step, or the "never" column when it did not escape */
  seeds: { seed: number; x: number; y: number; never: boolean }[];
}
export interface LrPanel {
  lr: number;
  rows: EscapeRow[];
  /** the reference's rows at this lr (muted), under a live run */
  ref: EscapeRow[];
}
export interface EscapeRowsView {
  rows: RowKey[];
  lrs: number[];
  steps: number;
  panels: LrPanel[];
  neverX: number;
  xDomain: Domain;
  yDomain: Domain;
}

const sameRow = (a: RowKey, b: RowKey) => a.placement === b.placement && a.warmup === b.warmup;

/** The live document `c` over the reference `ref` (null: none): the rows of both (the reference's
 *  order first), the lrs of both, the longer run; every marker placed on those rows. */
export function escapeRowsView(c: EscapeDoc, ref: EscapeDoc | null): EscapeRowsView {
  const base = ref?.rows.length ? ref.rows : [];
  const rows = [...base, ...c.rows.filter((r) => !base.some((q) => sameRow(q, r)))];
  const lrs = unionValues(c.lrs, ref?.lrs);
  const steps = Math.max(c.steps, ref?.steps ?? 0);
  const neverX = steps * 1.08;
  const n = rows.length;
  const place = (d: EscapeDoc, lr: number) =>
    rows.map((r, k): EscapeRow => {
      const cell = d.cells.find((x) => sameRow(x, r) && x.lr === lr);
      const y = n - 1 - k;
      const seeds = (cell?.runs ?? []).map((x) => ({ seed: x.seed, x: x.escape_step ?? neverX, y, never: x.escape_step == null }));
      return { ...r, y, cell, seeds };
    });
  const panels = lrs.map((lr) => ({ lr, rows: place(c, lr), ref: ref ? place(ref, lr).filter((r) => r.cell) : [] }));
  return { rows, lrs, steps, panels, neverX, xDomain: [0, steps * 1.14], yDomain: [-0.6, n - 0.4] };
}
