// fig13/transform.ts — phase-diagram document (the `deepNorm` slot) → Figure of claim 10 (`fig13`):
// DeepNorm beside Post-LN and Pre-LN, without warm-up and with one, at Figure 4's toy. Pure
// functions. One panel per peak lr; one row per (placement, warm-up), the placements in the
// document's order, each without warm-up above with; on each row every seed's escape step from the
// plateau (x = step), or a marker in the "never" column past the run's end when it did not escape.
// Under a live run the reference's markers are drawn muted on the same rows (the rows of both); the
// line at the run's end, its "never" column and the note under the figure follow the drawn run's own
// steps, the reference's never-markers its own (lib/run-length.ts).
import type { Domain } from '../../components/common/chart';
import { unionValues } from '../../components/common/chart';
import { runLengths, type RunLengths } from '../../lib/run-length';
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
  /** the drawn document's run length (its line, its note) */
  steps: number;
  /** the drawn document's and the reference's run lengths (lib/run-length.ts) */
  lengths: RunLengths;
  panels: LrPanel[];
  /** the drawn run's "never" column, past its own end */
  neverX: number;
  /** the reference's "never" column, past its end (its muted markers); null without a reference */
  refNeverX: number | null;
  xDomain: Domain;
  yDomain: Domain;
}

const sameRow = (a: RowKey, b: RowKey) => a.placement === b.placement && a.warmup === b.warmup;

/** The live document `c` over the reference `ref` (null: none): the rows of both (the reference's
 *  order first), the lrs of both, an axis that holds the longer run; every marker placed on those
 *  rows, each document's "never" markers past its own end. */
export function escapeRowsView(c: EscapeDoc, ref: EscapeDoc | null): EscapeRowsView {
  const base = ref?.rows.length ? ref.rows : [];
  const rows = [...base, ...c.rows.filter((r) => !base.some((q) => sameRow(q, r)))];
  const lrs = unionValues(c.lrs, ref?.lrs);
  const lengths = runLengths(c.steps, ref?.cells.length ? ref.steps : null);
  const neverX = lengths.steps * 1.08;
  const refNeverX = lengths.refSteps == null ? null : lengths.refSteps * 1.08;
  const n = rows.length;
  const place = (d: EscapeDoc, lr: number, never: number) =>
    rows.map((r, k): EscapeRow => {
      const cell = d.cells.find((x) => sameRow(x, r) && x.lr === lr);
      const y = n - 1 - k;
      const seeds = (cell?.runs ?? []).map((x) => ({ seed: x.seed, x: x.escape_step ?? never, y, never: x.escape_step == null }));
      return { ...r, y, cell, seeds };
    });
  const panels = lrs.map((lr) => ({ lr, rows: place(c, lr, neverX), ref: ref ? place(ref, lr, refNeverX ?? neverX).filter((r) => r.cell) : [] }));
  return {
    rows,
    lrs,
    steps: lengths.steps,
    lengths,
    panels,
    neverX,
    refNeverX,
    xDomain: [0, lengths.span * 1.14],
    yDomain: [-0.6, n - 0.4],
  };
}
