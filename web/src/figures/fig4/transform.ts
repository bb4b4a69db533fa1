// fig4/transform.ts — grid result → the loss-curve panels of Figure 4. Pure functions.
// (The live-run settings Figure 4 shows are the grid's field table, lib/settings.ts.)
//
// One panel per peak lr (ascending). In each: one series per (placement, warm-up), drawn as the
// seed-mean loss; the individual seeds are kept for hover. The mean is only defined while every
// seed has a loss: a run with status "nan" or "diverged" stops before its stop_step, is marked
// "diverged at step s", and neither it nor the mean is drawn past it.
// A run longer than LONG_CURVE steps (a reader's run of 10⁵ steps: issue 31) keeps its curves as
// numbers (lib/curve.ts curvePoints: the same lists of points, made only where read), which the
// chart draws from their M4 reduction at its width; its panels are built once per document.
import { gridTextLang, leavesPlateauAt, seedMean, type GridResult, type GridRunDoc, type PlacementName } from '../../engine/documents';
import { inDrawOrder } from '../../lib/placements';
import { DASH } from '../../lib/palette';
import type { Shape } from '../../lib/marker';
import { unionDomain } from '../../components/common/chart';
import { curvePoints } from '../../lib/curve';

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
  /** the share of its seeds still on the plateau at each step (plateauShare) */
  onPlateau: XY[];
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
  /** the reference lines: the optimum (ln successors; null on the article's text, which has none),
   *  the plateau (the chain's stationary entropy, or the text's unigram entropy), ln V; `text`: the
   *  text's language when the document learned the article's text (data = text), else null */
  refs: { optimal: number | null; plateau: number; uniform: number; text: string | null } | null;
  xDomain: [number, number];
  yDomain: [number, number];
}

// ---- Figure 4's line styles: one pattern, one meaning (tests/unit/fig4-compare.test.ts checks
// that every pattern below differs from every other). Colour is the placement (lib/placements.ts);
// the dash pattern is the warm-up length, on the reference and on the reader's runs alike (the
// caption says so); a reader's run is told apart by its marker (RUN_SHAPES), drawn along its lines,
// in its end tags and in its legend entry.

/** Warm-up dashes: no warm-up solid, then the nonzero lengths in ascending order (only dashes, no dots). */
export const WARMUP_DASHES = [DASH.solid, DASH.dashed, DASH.long, DASH.short, DASH.longShort] as const;
/** The reference rules: the optimum ln 4 (dotted, as the caption says), the plateau, ln V. */
export const RULE_DASHES = { optimal: DASH.dotted, plateau: DASH.dashDot, uniform: DASH.dotPairs } as const;
/** The markers of the drawn runs, in the order of their numbers (the first as today's round tag). */
export const RUN_SHAPES: readonly Shape[] = ['circle', 'square', 'diamond', 'triangle', 'triangle-down'];

/** Dash pattern of a warm-up length: 0 → solid, first nonzero → dashed, the next → long dashes, … */
export function warmupDash(warmup: number, warmups: readonly number[]): string {
  if (warmup === 0) return DASH.solid;
  const nz = [...new Set(warmups.filter((w) => w > 0))].sort((a, b) => a - b);
  const i = Math.max(0, nz.indexOf(warmup));
  return WARMUP_DASHES[1 + (i % (WARMUP_DASHES.length - 1))];
}

/** Curves longer than this many steps are kept as numbers (curvePoints); a run of the article's
 *  size (≤ 5,000 steps) gets its points made, and is drawn as it always was. */
export const LONG_CURVE = 5000;

/** A loss curve's points: x is the step (1-based). */
const toXY = (loss: number[]): XY[] => (loss.length > LONG_CURVE ? curvePoints({ ys: loss, x0: 1 }) : loss.map((y, i) => ({ x: i + 1, y })));

/**
 * The share of seeds still on the plateau at each step: a seed has left it from the step its own
 * loss first falls PLATEAU_DROP below the plateau (documents.ts leavesPlateauAt). Counted over the
 * seeds that reached the step (a diverged seed stops counting where it stopped); a step no seed
 * reached ends the curve. Given at its changes (and its last step), for a step curve.
 */
export function plateauShare(losses: readonly (readonly number[])[], plateau: number): XY[] {
  if (!losses.length || !Number.isFinite(plateau)) return [];
  const n = Math.max(...losses.map((l) => l.length));
  // one pass per seed: seed k has a loss up to its length, and is still on the plateau up to the
  // step before it leaves it (and its length); gone[t] / left[t] count the seeds that stop being
  // counted after step t
  const gone = new Int32Array(n + 1);
  const left = new Int32Array(n + 1);
  for (const l of losses) {
    gone[l.length]++;
    left[Math.min(l.length, (leavesPlateauAt(l, plateau) ?? Infinity) - 1)]++;
  }
  const out: XY[] = [];
  let here = losses.length - gone[0];
  let on = losses.length - left[0];
  let y = NaN;
  let t = 1;
  for (; t <= n; t++) {
    if (!here) break;
    const share = on / here;
    if (share !== y) out.push({ x: t, y: (y = share) });
    here -= gone[t];
    on -= left[t];
  }
  if (out.length && out[out.length - 1].x !== t - 1) out.push({ x: t - 1, y });
  return out;
}

// the panels of each long document (one with a curve longer than LONG_CURVE), built once: a
// document is replaced, never changed (engine/documents.ts mergeGrid)
const builtLong = new WeakMap<GridResult, Panels>();

export function buildPanels(G: GridResult | null): Panels {
  const empty: Panels = { panels: [], warmups: [], placements: [], steps: 0, refs: null, xDomain: [0, 1], yDomain: [0, 1] };
  if (!G?.runs?.length) return empty;
  if (!G.runs.some((r) => r.loss.length > LONG_CURVE)) return panelsOf(G);
  let p = builtLong.get(G);
  if (!p) builtLong.set(G, (p = panelsOf(G)));
  return p;
}

function panelsOf(G: GridResult): Panels {
  const lrs = [...new Set(G.runs.map((r) => r.lr))].sort((a, b) => a - b);
  const warmups = [...new Set(G.runs.map((r) => r.warmup))].sort((a, b) => a - b);
  const placements = inDrawOrder(G.runs.map((r) => r.placement));
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
          onPlateau: plateauShare(
            runs.map((r) => r.loss),
            G.plateau_entropy,
          ),
        };
      }),
    ),
  }));
  const text = gridTextLang(G);
  const optimal = text == null && Number.isFinite(G.optimal_loss) ? G.optimal_loss! : null;
  const refs = { optimal, plateau: G.plateau_entropy, uniform: G.uniform_loss, text };
  const finite = (xs: number[]) => xs.filter(Number.isFinite);
  const lo = Math.min(...(optimal == null ? [refs.plateau] : [optimal]), ...finite(G.runs.flatMap((r) => r.loss.slice(-50))));
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
  /** a run that is not complete: its state and how far it got ("cancelled · step 137 of 1000":
   *  lib/runs/drawn-run.ts stateTag), said in its legend entry and its table rows; '' or absent else */
  note?: string;
}
export interface LayerSeries extends Series {
  layer: string;
  layerLabel: string;
  muted: boolean;
  index: number | null;
  /** the run's marker (RUN_SHAPES); null for a muted layer (the reference) */
  shape: Shape | null;
}
/** What one drawn document is, for its legend entry: its settings that tell it apart. */
export interface LayerFacts {
  key: string;
  label: string;
  index: number | null;
  muted: boolean;
  shape: Shape | null;
  seeds: number | null;
  steps: number | null;
  /** the optimizer, only where it differs from the reference's (always given for the reference) */
  optimizer: string | null;
  /** the layer's note (Layer.note): a run that is not complete, where it got; '' for a complete one */
  note: string;
}
export interface LayerPanel {
  lr: number;
  series: LayerSeries[];
  /** the x domain of this panel: 0 to the longest document drawn in it (layersXDomain) */
  xDomain: [number, number];
  /** its last step (xDomain's end) */
  steps: number;
}
export interface LayerPanels extends Omit<Panels, 'panels'> {
  panels: LayerPanel[];
  /** the layers drawn, in drawing order (muted first) */
  layers: Layer[];
  /** each drawn layer's legend facts, in drawing order */
  facts: LayerFacts[];
}

/** How a run is named in Figure 4: "#3", or "#3 name" when the reader renamed it; the reference by its label. */
export function runName(index: number | null, label: string): string {
  if (index == null) return label;
  const num = `#${index}`;
  return !label || label === num ? num : `${num} ${label}`;
}

/** Each unmuted layer's marker: RUN_SHAPES in the order of the run numbers (so the drawn runs get
 *  distinct ones, up to RUN_SHAPES.length runs, and a run keeps its marker while newer ones come). */
export function runShapes(layers: readonly Pick<Layer, 'key' | 'muted' | 'index'>[]): Map<string, Shape> {
  const live = layers.filter((l) => !l.muted).map((l, i) => ({ l, i }));
  live.sort((a, b) => (a.l.index ?? Infinity) - (b.l.index ?? Infinity) || a.i - b.i);
  return new Map(live.map(({ l }, k) => [l.key, RUN_SHAPES[k % RUN_SHAPES.length]]));
}

/** The x domain that holds every given drawn document: 0 to the longest of them (its configured
 *  steps, so a streaming run's axis does not grow as it runs). */
export const layersXDomain = (xs: readonly Pick<Panels, 'xDomain' | 'panels'>[]): [number, number] =>
  unionDomain(
    xs.filter((p) => p.panels.length).map((p) => p.xDomain),
    { fallback: [0, 1] },
  );

/**
 * Several documents in one set of panels: one panel per lr any of them ran, each layer's series in
 * it (muted layers first, so runs are drawn over the reference), the axes spanning all of them.
 * Warm-up dashes are assigned over every layer's warm-ups so one dash means one length. The
 * reference lines are the top layer's (the chain a run trained on).
 */
export function buildLayers(layers: readonly Layer[]): LayerPanels {
  const ordered = [...layers.filter((l) => l.muted), ...layers.filter((l) => !l.muted)];
  const built = ordered.map((l) => ({ l, p: buildPanels(l.doc) })).filter((b) => b.p.panels.length);
  const empty: LayerPanels = { ...buildPanels(null), panels: [], layers: [], facts: [] };
  if (!built.length) return empty;
  const lrs = [...new Set(built.flatMap((b) => b.p.panels.map((p) => p.lr)))].sort((a, b) => a - b);
  const warmups = [...new Set(built.flatMap((b) => b.p.warmups))].sort((a, b) => a - b);
  const placements = inDrawOrder(built.flatMap((b) => b.p.placements));
  const steps = Math.max(...built.map((b) => b.p.steps));
  const top = built[built.length - 1].p;
  const shapes = runShapes(built.map((b) => b.l));
  const ref = built.find((b) => b.l.muted || b.l.index == null)?.l.doc.config;
  const panels = lrs.map((lr): LayerPanel => {
    // the documents drawn in this panel: its x axis holds them all, and no other (a run at a peak
    // lr the reference did not run is not squeezed into the reference's length)
    const here = built.filter((b) => b.p.panels.some((q) => q.lr === lr)).map((b) => b.p);
    const xDomain = layersXDomain(here);
    return {
      lr,
      xDomain,
      steps: xDomain[1],
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
            shape: shapes.get(l.key) ?? null,
          }),
        ),
      ),
    };
  });
  return {
    panels,
    warmups,
    placements,
    steps,
    refs: top.refs,
    xDomain: layersXDomain(built.map((b) => b.p)),
    yDomain: [Math.min(...built.map((b) => b.p.yDomain[0])), Math.max(...built.map((b) => b.p.yDomain[1]))],
    layers: built.map((b) => b.l),
    facts: built.map(({ l, p }): LayerFacts => {
      const c = l.doc.config;
      const own = c?.optimizer ?? null;
      const isRef = l.muted || l.index == null;
      return {
        key: l.key,
        label: l.label,
        index: l.index,
        muted: l.muted,
        shape: shapes.get(l.key) ?? null,
        seeds: c?.seeds?.length ?? (new Set(l.doc.runs.map((r) => r.seed)).size || null),
        steps: p.steps || null,
        optimizer: isRef || !ref || own !== (ref.optimizer ?? null) ? own : null,
        note: l.note ?? '',
      };
    }),
  };
}

// ---- end tags that never overlap, and the runs' markers along their lines (pixels; pure) ----

/** One line of a reader's run as RunMarks.svg draws its markers and end tag. */
export interface RunLine {
  key: string;
  /** the drawn line (data coordinates) */
  points: XY[];
  /** the run's number */
  index: number;
  shape: Shape;
  color: string;
}

export interface TagAnchor {
  key: string;
  /** the end of the line, in the plot's pixels */
  x: number;
  y: number;
}
export interface PlacedTag extends TagAnchor {
  /** where the tag's centre goes */
  px: number;
  py: number;
  /** the tag left its anchor: draw a leader line from (x, y) to (px, py) */
  moved: boolean;
}

/**
 * Places square tags of side `size` (px) at the ends of lines so that no two overlap and each stays
 * inside the plot (0…width × 0…height, and `margin` px to the right of it, where a chart leaves room
 * for them): each tag as near its anchor as it can be, `ahead` px to the right of it (so that a tag
 * sits beside a line's end rather than on it, and those at the plot's right edge in its margin, off
 * the reference lines' labels). Tags whose anchors
 * lie within `size` of each other horizontally share a column and are pushed apart vertically,
 * keeping their order in y, by at least `size` (clusters of tags that would overlap are centred on
 * their anchors, then held inside the plot). A column holds at most as many tags as fit in the
 * plot's height; more spill into further columns to its left. Non-finite anchors are left out.
 */
export function placeTags(
  anchors: readonly TagAnchor[],
  { width, height, size, ahead = 0, margin = 0 }: { width: number; height: number; size: number; ahead?: number; margin?: number },
): PlacedTag[] {
  const r = size / 2;
  const lo = r;
  const hi = Math.max(r, height - r);
  const cap = Math.max(1, Math.floor((hi - lo) / size) + 1);
  const items = anchors
    .filter((a) => Number.isFinite(a.x) && Number.isFinite(a.y))
    .map((a, n) => ({ a, n, ax: Math.max(r, Math.min(width + margin - r, a.x + ahead)), ay: Math.max(lo, Math.min(hi, a.y)) }));
  // groups from the right: an anchor joins the group to its right while it is within `size` of
  // that group's leftmost column
  items.sort((p, q) => q.ax - p.ax || p.ay - q.ay);
  const groups: (typeof items)[] = [];
  const leftEdge = (g: typeof items) => {
    const cols = Math.ceil(g.length / cap);
    return cols === 1 ? Math.min(...g.map((i) => i.ax)) : g[0].ax - (cols - 1) * size;
  };
  for (const it of items) {
    const g = groups[groups.length - 1];
    if (g && it.ax > leftEdge(g) - size) g.push(it);
    else groups.push([it]);
  }
  const out: (PlacedTag & { n: number })[] = [];
  for (const g of groups) {
    const cols = Math.ceil(g.length / cap);
    const right = g[0].ax;
    const byY = [...g].sort((p, q) => p.ay - q.ay || q.ax - p.ax);
    for (let c = 0; c < cols; c++) {
      const col = byY.filter((_, i) => i % cols === c);
      const ys = spread(
        col.map((i) => i.ay),
        size,
        lo,
        hi,
      );
      col.forEach((i, k) => {
        const px = cols === 1 ? i.ax : right - c * size;
        const py = ys[k];
        out.push({ ...i.a, n: i.n, px, py, moved: Math.abs(px - i.a.x) > 0.5 || Math.abs(py - i.a.y) > 0.5 });
      });
    }
  }
  // in the anchors' order
  return out.sort((p, q) => p.n - q.n).map(({ n: _, ...t }) => t);
}

/** Positions at least `gap` apart for wanted positions `ys` (ascending), each as near its wish as
 *  can be, all within [lo, hi] when they fit there: overlapping runs merge into clusters centred on
 *  the mean of their wishes. */
export function spread(ys: readonly number[], gap: number, lo: number, hi: number): number[] {
  const clusters: { first: number; n: number; top: number; sum: number }[] = [];
  const place = (c: (typeof clusters)[number]) => {
    const want = c.sum / c.n; // the mean of (wish − offset in the cluster)
    c.top = Math.max(lo, Math.min(Math.max(lo, hi - (c.n - 1) * gap), want));
  };
  ys.forEach((y, i) => {
    const c = { first: i, n: 1, top: y, sum: y };
    place(c);
    clusters.push(c);
    for (;;) {
      const b = clusters[clusters.length - 1];
      const a = clusters[clusters.length - 2];
      if (!a || a.top + a.n * gap <= b.top + 1e-9) break;
      // merge b into a: b's members sit at offsets a.n … a.n + b.n − 1
      a.sum += b.sum - b.n * a.n * gap;
      a.n += b.n;
      clusters.pop();
      place(a);
    }
  });
  return clusters.flatMap((c) => Array.from({ length: c.n }, (_, k) => c.top + k * gap));
}

/**
 * Where a run's line carries its marker: points of the line (pixels, in x order) about every
 * `every` px of x, the first after an offset that staggers the runs (`slot`: the run's place among
 * the drawn ones), none within `clear` px of the line's end (its tag is there). Non-finite points
 * are skipped.
 */
export function lineMarks(points: readonly XY[], slot: number, { every = 56, clear = 16 }: { every?: number; clear?: number } = {}): XY[] {
  const pts = points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  if (pts.length < 2) return [];
  const x0 = pts[0].x;
  const end = pts[pts.length - 1];
  const offset = (((slot % RUN_SHAPES.length) + 1) / (RUN_SHAPES.length + 1)) * every;
  const out: XY[] = [];
  let j = 0;
  for (let target = x0 + offset; target < end.x - clear; target += every) {
    while (j < pts.length - 1 && pts[j].x < target) j++;
    const p = pts[j];
    if (Math.hypot(p.x - end.x, p.y - end.y) < clear) break;
    out.push({ x: p.x, y: p.y });
  }
  return out;
}
