// fig4/transform.ts — grid result → the loss-curve panels of Figure 4. Pure functions.
// (The live-run settings Figure 4 edits are lib/grid-settings.ts; its URL parameters index.ts.)
//
// One panel per peak lr (ascending). In each: one series per (placement, warm-up), drawn as the
// seed-mean loss; the individual seeds are kept for hover. The mean is only defined while every
// seed has a loss: a run with status "nan" or "diverged" stops before its stop_step, is marked
// "diverged at step s", and neither it nor the mean is drawn past it.
import { seedMean, type GridResult, type GridRunDoc, type PlacementName } from '../../engine/documents';
import { inRegistryOrder } from '../../lib/placements';
import { DASH } from '../../lib/palette';

export interface XY {
  x: number;
  y: number;
}
export interface SeedLine {
  seed: number;
  points: XY[];
  status: GridRunDoc['status'];
  stopStep: number | null;
}
export interface Series {
  key: string;
  placement: PlacementName;
  warmup: number;
  lr: number;
  dash: string;
  mean: XY[];
  seeds: SeedLine[];
  /** diverged seeds: where, and the last finite loss to place the marker */
  diverged: { seed: number; step: number; at: XY | null }[];
  /** every seed finished ok */
  complete: boolean;
}
export interface Panel {
  lr: number;
  series: Series[];
}
export interface Panels {
  panels: Panel[];
  warmups: number[];
  /** the placements the grid ran, in the engine's order */
  placements: PlacementName[];
  steps: number;
  refs: { optimal: number; plateau: number; uniform: number } | null;
  xDomain: [number, number];
  yDomain: [number, number];
}

/** Dash pattern of a warm-up length: 0 → solid, first nonzero → dashed, the next → dash-dot. */
export function warmupDash(warmup: number, warmups: readonly number[]): string {
  if (warmup === 0) return DASH.solid;
  const nz = [...new Set(warmups.filter((w) => w > 0))].sort((a, b) => a - b);
  const i = nz.indexOf(warmup);
  return i <= 0 ? DASH.dashed : i === 1 ? '8 3 1.5 3' : DASH.dotted;
}

const toXY = (loss: number[]): XY[] => loss.map((y, i) => ({ x: i + 1, y }));

export function buildPanels(G: GridResult | null): Panels {
  const empty: Panels = { panels: [], warmups: [], placements: [], steps: 0, refs: null, xDomain: [0, 1], yDomain: [0, 1] };
  if (!G?.runs?.length) return empty;
  const lrs = [...new Set(G.runs.map((r) => r.lr))].sort((a, b) => a - b);
  const warmups = [...new Set(G.runs.map((r) => r.warmup))].sort((a, b) => a - b);
  const placements = inRegistryOrder(G.runs.map((r) => r.placement));
  const steps = G.config?.steps ?? Math.max(...G.runs.map((r) => r.loss.length));
  const panels = lrs.map((lr) => ({
    lr,
    series: placements.flatMap((placement) =>
      warmups.map((warmup): Series => {
        const runs = G.runs.filter((r) => r.placement === placement && r.warmup === warmup && r.lr === lr);
        return {
          key: `${placement}|${warmup}|${lr}`,
          placement,
          warmup,
          lr,
          dash: warmupDash(warmup, warmups),
          mean: toXY(seedMean(runs)),
          seeds: runs.map((r) => ({ seed: r.seed, points: toXY(r.loss), status: r.status, stopStep: r.stop_step })),
          diverged: runs
            .filter((r) => r.status === 'nan' || r.status === 'diverged')
            .map((r) => ({
              seed: r.seed,
              step: r.stop_step ?? r.loss.length + 1,
              at: r.loss.length ? { x: r.loss.length, y: r.loss[r.loss.length - 1] } : null,
            })),
          complete: runs.length > 0 && runs.every((r) => r.status === 'ok'),
        };
      }),
    ),
  }));
  const refs = { optimal: G.optimal_loss, plateau: G.plateau_entropy, uniform: G.uniform_loss };
  const finite = (xs: number[]) => xs.filter(Number.isFinite);
  const lo = Math.min(refs.optimal, ...finite(G.runs.flatMap((r) => r.loss.slice(-50))));
  // the top shows the first steps' losses (often above ln V), but a spike never squashes the plot
  const hi = Math.min(refs.uniform + 2, Math.max(refs.uniform + 0.3, ...finite(G.runs.flatMap((r) => r.loss.slice(0, 20)))));
  return {
    panels,
    warmups,
    placements,
    steps,
    refs,
    xDomain: [0, steps],
    yDomain: [Math.max(0, Math.floor((lo - 0.3) * 2) / 2), Math.ceil((hi + 0.15) * 2) / 2],
  };
}

/** The series' values at a step (1-based), for the hover readout; null where not drawn. */
export function valuesAt<S extends Series>(panel: { series: S[] }, step: number): { series: S; y: number | null }[] {
  return panel.series.map((s) => ({ series: s, y: s.mean[step - 1]?.y ?? null }));
}

/** Steps at which the data table samples the seed-mean loss. */
export function tableSteps(steps: number): number[] {
  if (steps <= 0) return [];
  const stride = steps <= 100 ? 10 : steps <= 500 ? 100 : 200;
  const out = [1];
  for (let s = stride; s < steps; s += stride) out.push(s);
  out.push(steps);
  return [...new Set(out)];
}

/** One document drawn in Figure 4: the reference (precomputed) or a run of the run list. */
export interface Layer {
  key: string;
  doc: GridResult;
  /** drawn faintly, under the runs (the reference while runs are shown) */
  muted: boolean;
  /** the run's name, or the reference's label */
  label: string;
  /** the run's number in the run list (its swatch there); null for the reference */
  index: number | null;
}
export interface LayerSeries extends Series {
  layer: string;
  layerLabel: string;
  muted: boolean;
  index: number | null;
}
export interface LayerPanels extends Omit<Panels, 'panels'> {
  panels: { lr: number; series: LayerSeries[] }[];
  /** the layers drawn, in drawing order (muted first) */
  layers: Layer[];
}

/**
 * Several documents in one set of panels: one panel per lr any of them ran, each layer's series in
 * it (muted layers first, so runs are drawn over the reference), the axes spanning all of them.
 * Warm-up dashes are assigned over every layer's warm-ups so one dash means one length. The
 * reference lines are the top layer's (the chain a run trained on).
 */
export function buildLayers(layers: readonly Layer[]): LayerPanels {
  const ordered = [...layers.filter((l) => l.muted), ...layers.filter((l) => !l.muted)];
  const built = ordered.map((l) => ({ l, p: buildPanels(l.doc) })).filter((b) => b.p.panels.length);
  const empty: LayerPanels = { ...buildPanels(null), panels: [], layers: [] };
  if (!built.length) return empty;
  const lrs = [...new Set(built.flatMap((b) => b.p.panels.map((p) => p.lr)))].sort((a, b) => a - b);
  const warmups = [...new Set(built.flatMap((b) => b.p.warmups))].sort((a, b) => a - b);
  const placements = inRegistryOrder(built.flatMap((b) => b.p.placements));
  const steps = Math.max(...built.map((b) => b.p.steps));
  const top = built[built.length - 1].p;
  const panels = lrs.map((lr) => ({
    lr,
    series: built.flatMap(({ l, p }) =>
      (p.panels.find((q) => q.lr === lr)?.series ?? []).map(
        (s): LayerSeries => ({
          ...s,
          key: `${l.key}|${s.key}`,
          dash: warmupDash(s.warmup, warmups),
          layer: l.key,
          layerLabel: l.label,
          muted: l.muted,
          index: l.index,
        }),
      ),
    ),
  }));
  return {
    panels,
    warmups,
    placements,
    steps,
    refs: top.refs,
    xDomain: [0, steps],
    yDomain: [Math.min(...built.map((b) => b.p.yDomain[0])), Math.max(...built.map((b) => b.p.yDomain[1]))],
    layers: built.map((b) => b.l),
  };
}
