// fig17/transform.ts — adam-first-step's counterfactual document → fig17's panels. Pure functions.
// One panel per placement the document ran (engine order, then a spec's); in each, per optimizer:
//   `all`   the update's RMS over every coordinate divided by the step's lr, against the step t;
//   `zero`  the same over the tensors whose step-1 gradient is exactly 0 in every coordinate (the
//           ReZero gate's branch weights; absent where there are none).
// Reference levels: 1 (Adam's sign step, every coordinate moves by lr) and √(1 − β2) (GI-Adam's first
// step, v₀ = g₁²), from the document's β2.
import { inRegistryOrder } from '../../lib/placements';
import { stepPanelAxes, type StepPanelAxes } from '../../components/common/panel-axes';
import type { AdamFirstStepResult } from '../../experiments/adam-first-step';

export interface CfPt {
  x: number;
  y: number;
}
export interface CfSeries {
  key: string; // `${placement}-${optimizer}`
  optimizer: string;
  status: string;
  all: CfPt[];
  zero: CfPt[] | null;
}
export interface CfPanel {
  key: string;
  placement: string;
  series: CfSeries[];
}
export interface CfChart {
  steps: number;
  panels: CfPanel[];
  yDomain: [number, number];
  giLevel: number;
}

type Run = AdamFirstStepResult['runs'][number];
const EMPTY: CfChart = { steps: 0, panels: [], yDomain: [0, 1.05], giLevel: Math.sqrt(0.02) };
const pts = (ys: readonly number[]): CfPt[] => ys.map((y, i) => ({ x: i + 1, y })).filter((p) => Number.isFinite(p.y));

/** The update RMS / lr over the tensors `ts`, per step (their sizes weigh them). */
export function groupRms(ts: Run['tensors']): number[] {
  const n = ts.reduce((a, t) => a + t.size, 0);
  const steps = Math.min(...ts.map((t) => t.step_over_lr.length));
  if (!n || !Number.isFinite(steps)) return [];
  return Array.from({ length: steps }, (_, i) => Math.sqrt(ts.reduce((a, t) => a + t.size * t.step_over_lr[i] ** 2, 0) / n));
}

export function cfChart(doc: AdamFirstStepResult | null): CfChart {
  if (!doc?.runs?.length) return EMPTY;
  const beta2 = typeof doc.config?.beta2 === 'number' ? doc.config.beta2 : 0.98;
  const registered = inRegistryOrder(doc.runs.map((r) => r.placement)) as string[];
  const placements = [...registered, ...new Set(doc.runs.map((r) => r.placement).filter((p) => !registered.includes(p)))];
  const panels = placements.map((placement) => ({
    key: placement,
    placement,
    series: doc.runs
      .filter((r) => r.placement === placement)
      .map((r) => {
        const zeroTs = r.tensors.filter((t) => t.zero_grad_share1 === 1);
        return {
          key: `${placement}-${r.optimizer}`,
          optimizer: r.optimizer,
          status: r.status,
          all: pts(r.update_rms),
          zero: zeroTs.length ? pts(groupRms(zeroTs)) : null,
        };
      }),
  }));
  const ys = panels.flatMap((p) => p.series.flatMap((s) => [...s.all, ...(s.zero ?? [])].map((q) => q.y)));
  const steps = Math.max(0, ...panels.flatMap((p) => p.series.map((s) => s.all.length)));
  if (!steps) return EMPTY;
  return { steps, panels, yDomain: [0, Math.max(1, ...ys) * 1.05], giLevel: Math.sqrt(1 - beta2) };
}

/** A series' values at step t, or undefined. */
export const valueAt = (s: CfSeries, t: number) => ({ all: s.all[t - 1]?.y, zero: s.zero?.[t - 1]?.y });

export type CfAxes = StepPanelAxes<CfPanel>;

/** The axes of chart `c` with the reference `ref` drawn muted under it: every step and value of both. */
export const cfAxes = (c: CfChart, ref: CfChart | null): CfAxes => stepPanelAxes(c, ref);
