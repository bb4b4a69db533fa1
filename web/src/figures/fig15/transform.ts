// fig15/transform.ts — phase-diagram document → the trainability map (`fig15`). Pure functions.
// For the chosen placement, one panel per warm-up: a grid of cells, x the peak lr (one column per lr
// of the document, in order: the lrs are a log ladder, so equal columns are equal ratios), y the
// depth (one row per depth, the deepest on top), each cell marked with its outcome (colour, marker
// shape and glyph: the outcome is never colour alone). Under a live run the reference's cells fill
// the places the live document has no cell for, muted (a recomputed cell or a quick map over the
// reference's map). The selected cell's runs are drawn as loss curves beside the map.
import type { Shape } from '../../lib/marker';
import { fmt, fmtInt } from '../../lib/format';
import { PLACEMENTS } from '../../lib/placements';
import { unionValues, type Domain } from '../../components/common/chart';
import { phasePlacements, runCurve, type Outcome, type PhaseCell, type PhaseDiagramResult } from '../../experiments/phase-diagram';

/** A placement the engine registers (not a spec's own name). */
const isPlacement = (p: string): boolean => (PLACEMENTS as readonly string[]).includes(p);

/** The marker of each outcome (the legend's swatch and the cell's tag). */
export const OUTCOME_SHAPE: Record<Outcome, Shape> = { trained: 'circle', plateau: 'square', diverged: 'triangle', mixed: 'diamond' };
/** The colour of each outcome: its role token (styles/tokens.css), and the ink drawn on it. */
export const outcomeColor = (o: Outcome): string => `var(--outcome-${o})`;

/** A cell's runs as a readout or a table says them (Figures 13, 14, 15): each seed's escape step
 *  (`never` where it did not escape) and final loss, in seed order, joined by ' · '. */
export const cellRuns = (cell: PhaseCell, never: string) => ({
  escape: cell.runs.map((r) => (r.escape_step == null ? never : fmtInt(r.escape_step))).join(' · '),
  loss: cell.runs.map((r) => fmt(r.final_loss)).join(' · '),
});

/** One placement's cells of a document, and the axes they span. */
export interface PhaseMap {
  placement: string | null;
  warmups: number[];
  depths: number[];
  lrs: number[];
  cells: PhaseCell[];
}
const EMPTY: PhaseMap = { placement: null, warmups: [], depths: [], lrs: [], cells: [] };
const sorted = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b);

/** The map of `placement` in `doc`: when `doc` lacks it, its first placement's, or (`strict`) an
 *  empty map of `placement` (a live run of other placements, drawn over the reference's map). */
export function phaseMap(doc: PhaseDiagramResult | null, placement: string, strict = false): PhaseMap {
  const names = phasePlacements(doc);
  if (!doc || !names.length || (strict && !names.includes(placement))) return { ...EMPTY, placement: strict ? placement : null };
  const p = names.includes(placement) ? placement : names[0];
  const cells = doc.cells.filter((c) => c.placement === p);
  return {
    placement: p,
    warmups: sorted(cells.map((c) => c.warmup)),
    depths: sorted(cells.map((c) => c.layers)),
    lrs: sorted(cells.map((c) => c.lr)),
    cells,
  };
}

/** A cell where the map draws it: x the lr's column, y the depth's row; `ref`: the reference's (muted). */
export interface MapCell {
  x: number;
  y: number;
  cell: PhaseCell;
  ref: boolean;
}
export interface MapPanel {
  warmup: number;
  cells: MapCell[];
}
export interface MapView {
  placement: string | null;
  warmups: number[];
  depths: number[];
  lrs: number[];
  panels: MapPanel[];
  xDomain: Domain;
  yDomain: Domain;
}

const same = (a: PhaseCell, b: PhaseCell) => a.warmup === b.warmup && a.layers === b.layers && a.lr === b.lr;

/** The map `c` drawn over the reference `ref` (null: none, or `c` is the reference): axes that hold
 *  both, and per warm-up the live cells and the reference's cells where the live map has none. */
export function mapView(c: PhaseMap, ref: PhaseMap | null): MapView {
  const warmups = unionValues(c.warmups, ref?.warmups);
  const depths = unionValues(c.depths, ref?.depths);
  const lrs = unionValues(c.lrs, ref?.lrs);
  const at = (cell: PhaseCell, isRef: boolean): MapCell => ({ x: lrs.indexOf(cell.lr), y: depths.indexOf(cell.layers), cell, ref: isRef });
  const panels = warmups.map((w) => ({
    warmup: w,
    cells: [
      ...(ref?.cells ?? []).filter((r) => r.warmup === w && !c.cells.some((x) => same(x, r))).map((r) => at(r, true)),
      ...c.cells.filter((x) => x.warmup === w).map((x) => at(x, false)),
    ],
  }));
  return {
    placement: c.placement ?? ref?.placement ?? null,
    warmups,
    depths,
    lrs,
    panels,
    xDomain: [-0.5, Math.max(0.5, lrs.length - 0.5)],
    yDomain: [-0.5, Math.max(0.5, depths.length - 0.5)],
  };
}

/** The cell drawn at (warm-up, depth, lr), live or reference; undefined where there is none. */
export const cellAt = (v: MapView, warmup: number, layers: number, lr: number): MapCell | undefined =>
  v.panels.find((p) => p.warmup === warmup)?.cells.find((m) => m.cell.layers === layers && m.cell.lr === lr);

/** A selection on the map: a warm-up's panel and a cell's depth and lr. */
export interface MapPick {
  warmup: number;
  layers: number;
  lr: number;
}

/** The selection after `key` (←/→ the lr, ↑/↓ the depth) from `at`, or null for another key. */
export function stepPick(v: MapView, at: MapPick, key: string): MapPick | null {
  const dx = key === 'ArrowRight' ? 1 : key === 'ArrowLeft' ? -1 : 0;
  const dy = key === 'ArrowUp' ? 1 : key === 'ArrowDown' ? -1 : 0;
  if (!dx && !dy) return null;
  const i = Math.max(0, Math.min(v.lrs.length - 1, v.lrs.indexOf(at.lr) + dx));
  const j = Math.max(0, Math.min(v.depths.length - 1, v.depths.indexOf(at.layers) + dy));
  return { warmup: at.warmup, lr: v.lrs[i] ?? at.lr, layers: v.depths[j] ?? at.layers };
}

/** The selection a pointer at (x, y) in panel `warmup`'s scales picks: the nearest cell's place. */
export function pickAt(v: MapView, warmup: number, x: number, y: number): MapPick | null {
  if (!v.lrs.length || !v.depths.length) return null;
  const i = Math.max(0, Math.min(v.lrs.length - 1, Math.round(x)));
  const j = Math.max(0, Math.min(v.depths.length - 1, Math.round(y)));
  return { warmup, lr: v.lrs[i], layers: v.depths[j] };
}

/** The first selection: the first warm-up's deepest row at its lowest lr that has a cell. */
export function firstPick(v: MapView): MapPick | null {
  const p = v.panels[0];
  if (!p?.cells.length) return null;
  const top = Math.max(...p.cells.map((m) => m.y));
  const m = p.cells.filter((c) => c.y === top).sort((a, b) => a.x - b.x)[0];
  return { warmup: p.warmup, layers: m.cell.layers, lr: m.cell.lr };
}

/** The selected cell's runs as loss curves (one per seed), and the reference cell's, muted, when
 *  a live cell is drawn over one. */
export interface CurveSeries {
  seed: number;
  outcome: PhaseCell['runs'][number]['outcome'];
  points: { x: number; y: number }[];
}
export interface CellCurves {
  runs: CurveSeries[];
  ref: CurveSeries[];
  xDomain: Domain;
  yDomain: Domain;
}
const curvesOf = (cell: PhaseCell | null | undefined): CurveSeries[] =>
  (cell?.runs ?? []).map((r) => ({ seed: r.seed, outcome: r.outcome, points: runCurve(r) }));

/** Curves of `cell` (and of `refCell` under it), on a step axis [0, steps] and a loss axis that
 *  holds them and the `marks` (the plateau, ln successors), clipped at `cap` (a blown-up run's
 *  first steps would flatten the rest). */
export function cellCurves(cell: PhaseCell | null | undefined, refCell: PhaseCell | null | undefined, steps: number, marks: number[], cap: number): CellCurves {
  const runs = curvesOf(cell);
  const ref = refCell && refCell !== cell ? curvesOf(refCell) : [];
  const ys = [...runs, ...ref].flatMap((s) => s.points.map((p) => p.y)).filter(Number.isFinite);
  const lo = Math.min(...marks, ...ys);
  const hi = Math.min(cap, Math.max(...marks, ...ys));
  return { runs, ref, xDomain: [0, Math.max(1, steps)], yDomain: [Math.floor(lo * 2) / 2, Math.ceil(hi * 2) / 2 + 0.01] };
}

/** The engine config that recomputes one cell: the drawn document's config with its sweep narrowed
 *  to the cell (its seeds kept). A placement spec stays only when the cell is the spec's placement. */
export function cellConfig(
  config: Record<string, unknown> | null | undefined,
  cell: Pick<PhaseCell, 'placement' | 'warmup' | 'layers' | 'lr'>,
): Record<string, unknown> {
  const c: Record<string, unknown> = { ...(config ?? {}) };
  if (isPlacement(cell.placement)) delete c.placement_spec;
  return { ...c, placements: [cell.placement], warmups: [cell.warmup], depths: [cell.layers], lrs: [cell.lr] };
}
