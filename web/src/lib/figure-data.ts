// figure-data.ts — the numbers behind each figure, as a table (CSV) and as a JSON object. Pure.
//
// Tables are "long": one row per drawn value with its coordinates, so they load straight into a
// data frame. Values that are not finite, and steps after a run stopped (status nan/diverged),
// never appear as numbers: they are absent (the row is not written) or empty.
//   fig1  step, post_node, pre_node, factor           (the backward path; no engine numbers)
//   fig2  layer, norm2_over_d_mean, …_std, lemma2_lo, lemma2_hi, final_ln_gain_mean, …_std
//   fig3  panel, placement, x_name, x, statistic, mean, std
//   fig4  placement, warmup, peak_lr, seed, step, loss, grad_norm, lr, status, stop_step
//         (seed "mean" rows are the drawn seed-mean curve)
import { probeDepths, seedMean, type GridResult, type ProbeResult } from '../engine/documents';
import type { Table, Cell } from './export';
import { STEPS, nodeById } from '../figures/fig1/path';
import { plainInline } from '../figures/fig1/text';

// ---- Figure 1 -------------------------------------------------------------------------------------
/** Figure 1's steps with the factor sentences as plain text ({{key}} filled from `bindings`). */
export function fig1Table(text: Record<string, string>, bindings: Record<string, string> = {}): Table {
  const fill = (s: string) => plainInline(s.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (m, k: string) => bindings[k] ?? m));
  const label = (row: 'post' | 'pre', id: string | null) =>
    id == null ? '' : id === 'finalLn' ? (text.finalLn ?? 'Final LN') : (text[`node_${id}`] ?? nodeById(row, id)?.label ?? id);
  return {
    columns: ['step', 'post_node', 'pre_node', 'factor'],
    rows: STEPS.map((s, i) => [i + 1, label('post', s.post), label('pre', s.pre), fill(text[s.factorKey] ?? s.factorKey)]),
  };
}

export function fig1Json(text: Record<string, string>, bindings: Record<string, string>, state: { step: number; finalLn: boolean }) {
  const t = fig1Table(text, bindings);
  return { state, steps: t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c, r[i]]))) };
}

// ---- Figure 2 -------------------------------------------------------------------------------------
export function fig2Table(P: ProbeResult | null): Table {
  const columns = ['layer', 'norm2_over_d_mean', 'norm2_over_d_std', 'lemma2_lo', 'lemma2_hi', 'final_ln_gain_mean', 'final_ln_gain_std'];
  const pre = P?.pre;
  if (!pre) return { columns, rows: [] };
  const m = pre.norm2_over_d?.mean ?? [];
  const rows: Cell[][] = m.map((v, i) => [
    i + 1,
    v,
    pre.norm2_over_d?.std?.[i],
    pre.lemma2_band?.lo?.[i],
    pre.lemma2_band?.hi?.[i],
    null,
    null,
  ]);
  rows.push(['final', 1, 0, null, null, pre.final_ln_gain?.mean, pre.final_ln_gain?.std]);
  return { columns, rows };
}

export function fig2Json(P: ProbeResult | null, selected: number | 'final' | null) {
  return {
    selected_layer: selected,
    config: P?.config ?? null,
    engine: P?.engine ?? null,
    pre: P?.pre ? { norm2_over_d: P.pre.norm2_over_d, final_ln_gain: P.pre.final_ln_gain, lemma2_band: P.pre.lemma2_band } : null,
  };
}

// ---- Figure 3 -------------------------------------------------------------------------------------
export function fig3Table(P: ProbeResult | null): Table {
  const columns = ['panel', 'placement', 'x_name', 'x', 'statistic', 'mean', 'std'];
  const rows: Cell[][] = [];
  if (!P) return { columns, rows };
  for (const norm of ['post', 'pre'] as const) {
    const S = P[norm];
    if (!S) continue;
    for (const stat of ['W2_per_layer', 'W2_per_batch'] as const)
      (S[stat]?.mean ?? []).forEach((y, i) => rows.push(['a', norm, 'layer', i + 1, stat, y, S[stat].std?.[i]]));
    (S.norm2_over_d?.mean ?? []).forEach((y, i) => rows.push(['b', norm, 'layer', i + 1, 'norm2_over_d', y, S.norm2_over_d.std?.[i]]));
  }
  const band = P.pre?.lemma2_band;
  (band?.lo ?? []).forEach((lo, i) => {
    rows.push(['b', 'pre', 'layer', i + 1, 'lemma2_lo', lo, null]);
    rows.push(['b', 'pre', 'layer', i + 1, 'lemma2_hi', band!.hi[i], null]);
  });
  const depths = probeDepths(P);
  for (const norm of ['post', 'pre'] as const)
    for (const L of depths)
      for (const stat of ['W2_per_batch', 'W2_per_layer'] as const) {
        const v = P[norm]?.lastW2_vs_L?.[String(L)]?.[stat];
        if (v) rows.push(['c', norm, 'depth', L, stat, v.mean, v.std]);
      }
  const L0 = depths[0];
  const y0 = P.pre?.lastW2_vs_L?.[String(L0)]?.W2_per_batch?.mean;
  if (L0 != null && y0 != null && Number.isFinite(y0))
    for (const L of depths) rows.push(['c', 'pre', 'depth', L, 'extrapolation_1_over_sqrt_L', y0 * Math.sqrt(L0 / L), null]);
  return { columns, rows };
}

export const fig3Json = (P: ProbeResult | null, stat: string) => ({ statistic_shown: stat, probe: P });

// ---- Figure 4 -------------------------------------------------------------------------------------
export function fig4Table(G: GridResult | null): Table {
  const columns = ['placement', 'warmup', 'peak_lr', 'seed', 'step', 'loss', 'grad_norm', 'lr', 'status', 'stop_step'];
  const rows: Cell[][] = [];
  if (!G?.runs) return { columns, rows };
  for (const r of G.runs)
    r.loss.forEach((loss, i) => {
      if (Number.isFinite(loss)) rows.push([r.norm, r.warmup, r.lr, r.seed, i + 1, loss, r.grad_norm?.[i], r.lr_schedule?.[i], r.status, r.stop_step]);
    });
  // the drawn seed-mean curves: defined only while every seed has a loss
  const keys = [...new Set(G.runs.map((r) => `${r.norm}|${r.warmup}|${r.lr}`))];
  for (const k of keys) {
    const runs = G.runs.filter((r) => `${r.norm}|${r.warmup}|${r.lr}` === k);
    const stopped = runs.find((r) => r.status === 'nan' || r.status === 'diverged');
    seedMean(runs).forEach((loss, i) => {
      if (Number.isFinite(loss))
        rows.push([runs[0].norm, runs[0].warmup, runs[0].lr, 'mean', i + 1, loss, null, runs[0].lr_schedule?.[i], stopped ? stopped.status : runs.every((r) => r.status === 'ok') ? 'ok' : 'running', stopped?.stop_step ?? null]);
    });
  }
  return { columns, rows };
}

export const fig4Json = (G: GridResult | null) => ({ grid: G });
