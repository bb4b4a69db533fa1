// fig18/transform.ts — lr-sensitivity's document → fig18's two panels. Pure functions.
//   (a) per placement (engine order, then a spec's), the capped final loss (the seeds' mean of
//       min(final loss, ℓ₀), a stopped run counting as ℓ₀) against the peak lr, with its ℓ₀, its
//       best point and the lrs where some seed's run was stopped;
//   (b) per placement and each of the `top` largest lrs, the largest attention logit against the
//       step: at each recorded step, the largest over the seeds that recorded it.
import { inRegistryOrder } from '../../lib/placements';
import { unionDomain, type Domain } from '../../components/common/chart';
import type { LrSensitivityResult } from '../../experiments/lr-sensitivity';

export interface LsPt {
  x: number;
  y: number;
}
export interface LsCurve {
  placement: string;
  loss0: number;
  sensitivity: number;
  best: LsPt;
  /** capped loss per lr */
  points: LsPt[];
  /** the lrs (at ℓ₀) where some seed's run was stopped */
  stopped: LsPt[];
}
export interface LsLogit {
  key: string; // `${placement}@${lr}`
  placement: string;
  lr: number;
  /** 0 for the largest lr, 1 for the next … */
  rank: number;
  points: LsPt[];
}
export interface LsChart {
  lrs: number[];
  steps: number;
  curves: LsCurve[];
  logits: LsLogit[];
  /** the logits' lrs, largest first */
  logitLrs: number[];
  lossDomain: [number, number];
  logitDomain: [number, number];
}

type Doc = LrSensitivityResult;
export const EMPTY: LsChart = { lrs: [], steps: 0, curves: [], logits: [], logitLrs: [], lossDomain: [0, 1], logitDomain: [1, 10] };

/** The placements of a document in the page's order: registered ones in registry order, then a spec's. */
function ordered(names: string[]): string[] {
  const registered = inRegistryOrder(names) as string[];
  return [...registered, ...new Set(names.filter((p) => !registered.includes(p)))];
}

/** The largest logit per recorded step over runs `rs` (each step: the max over the runs that recorded it). */
export function logitOverSeeds(rs: readonly { at: number[]; max_logit: (number | null)[] }[]): LsPt[] {
  const by = new Map<number, number>();
  for (const r of rs)
    r.at.forEach((s, i) => {
      const v = r.max_logit[i];
      if (v != null && Number.isFinite(v)) by.set(s, Math.max(by.get(s) ?? 0, v));
    });
  return [...by.entries()].sort((a, b) => a[0] - b[0]).map(([x, y]) => ({ x, y }));
}

export function lsChart(doc: Doc | null, top = 3): LsChart {
  if (!doc?.placements?.length) return EMPTY;
  const names = ordered(doc.placements.map((p) => p.placement));
  const byName = new Map(doc.placements.map((p) => [p.placement, p]));
  const curves: LsCurve[] = names.map((name) => {
    const p = byName.get(name)!;
    return {
      placement: name,
      loss0: p.loss0,
      sensitivity: p.sensitivity,
      best: { x: p.best_lr, y: p.best_loss },
      points: p.cells.map((c) => ({ x: c.lr, y: c.capped_loss })),
      stopped: p.cells.filter((c) => c.stopped > 0).map((c) => ({ x: c.lr, y: c.capped_loss })),
    };
  });
  const lrs = [...new Set(doc.placements.flatMap((p) => p.cells.map((c) => c.lr)))].sort((a, b) => a - b);
  const logitLrs = lrs.slice(-top).reverse();
  const logits: LsLogit[] = names.flatMap((name) =>
    logitLrs.map((lr, rank) => ({
      key: `${name}@${lr}`,
      placement: name,
      lr,
      rank,
      points: logitOverSeeds(doc.runs.filter((r) => r.placement === name && r.lr === lr)),
    })),
  );
  const losses = curves.flatMap((c) => [c.loss0, ...c.points.map((q) => q.y)]).filter(Number.isFinite);
  const ys = logits.flatMap((l) => l.points.map((q) => q.y)).filter((y) => y > 0);
  const steps = Math.max(0, ...doc.runs.flatMap((r) => r.at));
  const lo = Math.min(...losses),
    hi = Math.max(...losses);
  const pad = Math.max(0.05, 0.06 * (hi - lo));
  return {
    lrs,
    steps,
    curves,
    logits,
    logitLrs,
    lossDomain: losses.length ? [Math.max(0, lo - pad), hi + pad] : [0, 1],
    logitDomain: ys.length ? [Math.min(...ys) / 1.3, Math.max(...ys) * 1.3] : [1, 10],
  };
}

/** A curve's point at lr, or undefined. */
export const pointAtLr = (c: LsCurve, lr: number) => c.points.find((q) => q.x === lr);
/** A logit series' value at step s (the last recorded at or before s), or undefined. */
export function logitAtStep(l: LsLogit, s: number): number | undefined {
  let v: number | undefined;
  for (const q of l.points) if (q.x <= s) v = q.y;
  return v;
}

export interface LsView {
  c: LsChart;
  lrDomain: Domain;
  stepDomain: Domain;
  lossDomain: Domain;
  logitDomain: Domain;
  /** the reference's curves and logit series drawn muted under a live run (none otherwise) */
  refCurves: LsCurve[];
  refLogits: LsLogit[];
}

/** The axes of chart `c` with the reference `ref` drawn muted under it: every lr, step and value of both. */
export function lsView(c: LsChart, ref: LsChart | null): LsView {
  const under = ref && ref !== c ? ref : null;
  const lrs = [...c.lrs, ...(under?.lrs ?? [])];
  const steps = Math.max(c.steps, under?.steps ?? 0);
  const live = c.curves.length > 0;
  return {
    c,
    lrDomain: lrs.length ? [Math.min(...lrs) / 1.5, Math.max(...lrs) * 1.5] : [1e-4, 1],
    stepDomain: [1, Math.max(2, steps)],
    lossDomain: under ? unionDomain([live ? c.lossDomain : null, under.lossDomain], { fallback: c.lossDomain }) : c.lossDomain,
    logitDomain: under ? unionDomain([live ? c.logitDomain : null, under.logitDomain], { log: true, fallback: c.logitDomain }) : c.logitDomain,
    refCurves: under?.curves ?? [],
    refLogits: under?.logits ?? [],
  };
}
