// fig19/transform.ts — the real-text document → fig19's panels. Pure functions.
// One panel per language of the document (its `langs` order); in each, per placement and warm-up
// (the document's groups), the seed-mean training loss against the step, as its trailing 10-step
// mean (`train`: the mean the escape criterion reads; a batch of 2 × 32 bytes is noisy), and the
// seed-mean validation loss at the validation steps (`val`: held-out text), over the seeds that ran
// to the end; and the panel's plateau line, the text's unigram entropy.
import { stepPanelAxes, type StepPanelAxes } from '../../components/common/panel-axes';
import { inRegistryOrder } from '../../lib/placements';
import { meanCurve } from '../../engine/documents';
import type { RealTextResult } from '../../experiments/real-text';

export interface RtPt {
  x: number;
  y: number;
}
export interface RtSeries {
  key: string; // `${lang}-${placement}-${warmup}`
  placement: string;
  warmup: number;
  train: RtPt[];
  val: RtPt[];
  escape: number | null;
}
export interface RtPanel {
  key: string; // the language
  lang: string;
  plateau: number;
  series: RtSeries[];
}
export interface RtChart {
  steps: number;
  warmups: number[];
  panels: RtPanel[];
  yDomain: [number, number];
}

const EMPTY: RtChart = { steps: 0, warmups: [], panels: [], yDomain: [0, Math.log(256)] };

/** The trailing mean of `ys` over `window` values (fewer at the start). */
export function trailingMean(ys: readonly number[], window = 10): number[] {
  let sum = 0;
  return ys.map((y, i) => {
    sum += y - (i >= window ? ys[i - window] : 0);
    return sum / Math.min(i + 1, window);
  });
}

export function rtChart(doc: RealTextResult | null): RtChart {
  if (!doc?.runs?.length) return EMPTY;
  const langs = [...new Set(doc.runs.map((r) => r.lang))];
  const placements = inRegistryOrder([...new Set(doc.runs.map((r) => r.placement))]) as string[];
  const warmups = [...new Set(doc.runs.map((r) => r.warmup))].sort((a, b) => a - b);
  const panels = langs.map((lang) => ({
    key: lang,
    lang,
    plateau: doc.texts.find((t) => t.lang === lang)?.unigram_entropy ?? NaN,
    series: placements.flatMap((placement) =>
      warmups.flatMap((warmup) => {
        const runs = doc.runs.filter((r) => r.lang === lang && r.placement === placement && r.warmup === warmup && r.status === 'ok');
        if (!runs.length) return [];
        const steps = runs[0].val_step;
        return [
          {
            key: `${lang}-${placement}-${warmup}`,
            placement,
            warmup,
            train: trailingMean(meanCurve(runs.map((r) => r.loss))).map((y, i) => ({ x: i + 1, y })),
            val: meanCurve(runs.map((r) => r.val_loss)).map((y, i) => ({ x: steps[i], y })),
            escape: doc.groups.find((g) => g.lang === lang && g.placement === placement && g.warmup === warmup)?.escape_step ?? null,
          },
        ];
      }),
    ),
  }));
  const ys = panels.flatMap((p) => [p.plateau, ...p.series.flatMap((s) => [...s.train, ...s.val].map((q) => q.y))]).filter(Number.isFinite);
  const steps = Math.max(0, ...panels.flatMap((p) => p.series.map((s) => s.train.length)));
  if (!steps) return EMPTY;
  return { steps, warmups, panels, yDomain: [Math.min(...ys) * 0.95, Math.max(...ys) * 1.02] };
}

/** A series' training loss at step t, and its validation loss there if one was measured at t. */
export const valueAt = (s: RtSeries, t: number) => ({ train: s.train[t - 1]?.y, val: s.val.find((p) => p.x === t)?.y });

export type RtAxes = StepPanelAxes<RtPanel>;

/** The axes of chart `c` with the reference `ref` drawn muted under it: every step and value of both. */
export const rtAxes = (c: RtChart, ref: RtChart | null): RtAxes => stepPanelAxes(c, ref);
