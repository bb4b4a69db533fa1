// documents.ts — TypeScript types for the engine's JSON documents (docs/json-schema.md), plus the
// pure helpers that read them (the depths of a probe, the seed mean of grid runs) and that merge
// streamed partial grid documents. Types only describe what the page reads; unknown extra keys are
// allowed and ignored. The configs' types come from the engine's schema (generated/engine-schema.ts).
import {
  PLACEMENTS,
  TRAIN_FIELDS,
  type GridConfig as EngineGridConfig,
  type PlacementName,
  type ProbeConfig as EngineProbeConfig,
} from '../generated/engine-schema';
import type { Flavour } from './lnx-module';

export type { PlacementName };

/**
 * Config keys of training runs that the engine gained after documents (the precomputed files, stored
 * and exported run lists) were first written. A document without one was made by an engine that ran
 * as the key's default does now (warmup_shape: linear; data: markov, the chain before real text;
 * text_lang and eval_every, which mean nothing on the chain), so configs are compared with these
 * keys filled in (doc-compare.ts, the run list's settings: a text run's entry names its text_lang,
 * and not the default eval_every the reference lacks).
 */
export const ADDED_CONFIG_KEYS = ['warmup_shape', 'data', 'text_lang', 'eval_every'] as const satisfies readonly (keyof typeof TRAIN_FIELDS)[];

/** `c` with every ADDED_CONFIG_KEYS key it lacks set to the engine's default; `c` itself when it lacks none. */
export function withAddedKeys<C extends Record<string, unknown>>(c: C): C {
  const missing = ADDED_CONFIG_KEYS.filter((k) => !(k in c));
  return missing.length ? { ...c, ...Object.fromEntries(missing.map((k) => [k, TRAIN_FIELDS[k].default])) } : c;
}

/** Header present in every document. */
export interface EngineInfo {
  version: string;
  build: 'native' | Flavour;
  threads: number;
  /** present when the document was computed on the GPU */
  backend?: 'webgpu';
  /** present (true) when the FMA flavour's fused GEMM kernel computed it: its last bits are this CPU's */
  fma?: true;
}

export interface MeanStd {
  mean: number;
  std: number;
}
export interface MeanStdArr {
  mean: number[];
  std: number[];
}

/** A probe document's config: the engine's probe config (generated from its schema) and the rule
 *  of its targets. */
export type ProbeConfig = EngineProbeConfig & { targets?: string };

/** One placement's statistics in a probe document. Layer arrays run bottom (layer 1) to top (L). */
export interface ProbeStats {
  W2_per_layer: MeanStdArr;
  W2_per_batch: MeanStdArr;
  norm2_over_d: MeanStdArr;
  final_ln_gain: MeanStd;
  lemma2_band: { lo: number[]; hi: number[] };
  /** keyed by depth as a string ("6", "8", …) */
  lastW2_vs_L: Record<string, { W2_per_layer: MeanStd; W2_per_batch: MeanStd }>;
}

/** Provenance added to the files in public/data/ by scripts/precompute.mjs. */
export interface Precomputed {
  generated?: string;
  precomputed?: boolean;
}

export interface ProbeResult extends Precomputed {
  engine: EngineInfo;
  config: ProbeConfig;
  /** one entry per placement of config.placements */
  placements: Partial<Record<PlacementName, ProbeStats>>;
  /** its first `jobs` of `of` jobs (placement × seed × depth) were measured on `backend` (a WebGPU
   *  probe continued on the CPU) */
  handoff?: { backend: 'webgpu'; jobs: number; of: number };
}

/** Every experiment document (docs/experiments.md): its name, engine, config; its own keys are
 *  declared with its slots (web/src/experiments/<name>.ts). */
export interface ExperimentResult extends Precomputed {
  experiment: string;
  engine: EngineInfo;
  config: Record<string, unknown> & { placements?: string[]; depths?: number[]; seeds?: number[] };
}

/** 'nan': a loss or gradient stopped being finite; 'diverged': the loss rose above 4·ln V. Both stop the run at stop_step. */
export type RunStatus = 'running' | 'ok' | 'nan' | 'diverged';

/** A grid document's config: the engine's grid config (generated from its schema). */
export type GridConfig = EngineGridConfig;

export interface GridRunDoc {
  placement: PlacementName;
  warmup: number;
  lr: number;
  seed: number;
  status: RunStatus;
  stop_step: number | null;
  steps_done?: number;
  from: number;
  loss: number[];
  grad_norm: number[];
  lr_schedule: number[];
  /** its first `steps` steps were computed on `backend` (a WebGPU run continued on the CPU) */
  handoff?: { backend: 'webgpu'; steps: number };
  /** a run on the article's text (data = text): the steps of its validation losses and those losses
   *  (the mean loss over the held-out windows), sent whole with every streamed chunk */
  val_step?: number[];
  val_loss?: number[];
}

/** One language's text a run on the article's text learned (data = text): its length and hash, and
 *  its training and held-out split (docs/engine.md, "Real text"). */
export interface TextPart {
  lang: string;
  bytes: number;
  fnv1a64: string;
  train_bytes: number;
  held_out_bytes: number;
}

/** The language of the article's text a grid learned (data = text; text_lang, by default both), or
 *  null for the Markov chain (a document made before the knob included): what Figure 4 draws as its
 *  plateau line and whether it has an optimal line (figures/fig4/transform.ts), and what its caption
 *  says of them (lib/prose-numbers.ts `toy.lines`). */
export const gridTextLang = (G: Pick<GridResult, 'config'> | null | undefined): string | null =>
  G?.config?.data === 'text' ? String(G.config.text_lang ?? TRAIN_FIELDS.text_lang.default) : null;

export interface GridResult extends Precomputed {
  engine: EngineInfo;
  config: GridConfig;
  /** the plateau line: the chain's stationary entropy, or the text's unigram entropy (data = text) */
  plateau_entropy: number;
  /** the chain's best loss, ln successors; absent on the article's text, which has no known best loss */
  optimal_loss?: number;
  uniform_loss: number;
  /** the texts a run on the article's text learned (data = text) */
  text?: TextPart[];
  progress: number;
  from?: number;
  runs: GridRunDoc[];
}

/** Identity of a grid run inside one grid (placement, warmup, lr, seed). */
export const runKey = (r: Pick<GridRunDoc, 'placement' | 'warmup' | 'lr' | 'seed'>): string => `${r.placement}|${r.warmup}|${r.lr}|${r.seed}`;

/**
 * Merge a streamed grid document (arrays from index `from` per run) into the accumulated one.
 * Each run's arrays are cut at its `from` and the delta appended, so re-sent tails are harmless.
 * Returns a new object; `prev` is not mutated. With `prev` null the delta must start at 0.
 */
export function mergeGrid(prev: GridResult | null, delta: GridResult): GridResult {
  const old = new Map((prev?.runs ?? []).map((r) => [runKey(r), r]));
  const runs = delta.runs.map((d) => {
    const p = old.get(runKey(d));
    const from = d.from ?? delta.from ?? 0;
    const cut = (a: number[] | undefined, b: number[]) => (a ?? []).slice(0, from).concat(b ?? []);
    return {
      ...d,
      from: 0,
      loss: cut(p?.loss, d.loss),
      grad_norm: cut(p?.grad_norm, d.grad_norm),
      lr_schedule: cut(p?.lr_schedule, d.lr_schedule),
    };
  });
  return { ...delta, from: 0, runs };
}

/** The index from which the next streamed request needs arrays: the shortest still-running run. */
export function nextFrom(g: GridResult | null): number {
  if (!g) return 0;
  const running = g.runs.filter((r) => r.status === 'running').map((r) => r.loss.length);
  const lens = running.length ? running : g.runs.map((r) => r.loss.length);
  return lens.length ? Math.min(...lens) : 0;
}

/** The placements a probe document has statistics for, in the engine's order. */
export function probePlacements(P: ProbeResult | null): PlacementName[] {
  return PLACEMENTS.filter((p) => P?.placements?.[p]);
}

/** Depths present in the probe's lastW2_vs_L (of any placement), ascending. */
export function probeDepths(P: ProbeResult | null): number[] {
  if (!P) return [];
  const keys = new Set(probePlacements(P).flatMap((p) => Object.keys(P.placements[p]?.lastW2_vs_L ?? {})));
  return [...keys]
    .map(Number)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
}

/** How far below the plateau a loss curve must fall to have left it (the engine's escape rule,
 *  wasm/experiments/measure.h escape_step, uses the same drop). */
export const PLATEAU_DROP = 0.5;

/** The 1-based first step at which a loss curve is PLATEAU_DROP below the plateau, or null when it
 *  never is: the step it leaves the plateau (the article's "break" step, Figure 4's plateau share). */
export function leavesPlateauAt(curve: readonly number[], plateau: number): number | null {
  const i = curve.findIndex((v) => v < plateau - PLATEAU_DROP);
  return i < 0 ? null : i + 1;
}

/** The mean of each index over `curves`, as long as the shortest; empty for no curves (the seed mean
 *  of any per-step series: Figures 19 and 20 too). */
export function meanCurve(curves: readonly (readonly number[])[]): number[] {
  if (!curves.length) return [];
  const n = Math.min(...curves.map((c) => c.length));
  // curve by curve (a tight loop over each curve's numbers: a run of 10⁵ steps), the sum at each
  // index in the curves' order, from 0, as a reduce over them would add it (the same bits)
  const out = new Array<number>(n).fill(0);
  for (const c of curves) for (let t = 0; t < n; t++) out[t] += c[t];
  for (let t = 0; t < n; t++) out[t] /= curves.length;
  return out;
}

/**
 * The seed-mean loss curve of a set of runs, as long as every seed has a value
 * (a diverged seed cuts it at its last finite step). Empty for no runs.
 */
export const seedMean = (runs: GridRunDoc[]): number[] => meanCurve(runs.map((r) => r.loss));

/** seedMean(runs)[t] (0-based) alone, the same bits, without the rest of the curve (a headline's
 *  final loss of a run of 10⁵ steps); undefined past the mean's end. */
export function seedMeanAt(runs: GridRunDoc[], t: number): number | undefined {
  if (!runs.length || !(t >= 0 && t < Math.min(...runs.map((r) => r.loss.length)))) return undefined;
  let sum = 0;
  for (const r of runs) sum += r.loss[t];
  return sum / runs.length;
}

/** The 1-based first step at which the seed mean of `runs` is below `y`, or null when it never is:
 *  firstBelow(seedMean(runs), y) without the curve past that step (the same sums). */
export function meanFirstBelow(runs: GridRunDoc[], y: number): number | null {
  const n = runs.length ? Math.min(...runs.map((r) => r.loss.length)) : 0;
  for (let t = 0; t < n; t++) {
    let sum = 0;
    for (const r of runs) sum += r.loss[t];
    if (sum / runs.length < y) return t + 1;
  }
  return null;
}

/** leavesPlateauAt(seedMean(runs), plateau), without the mean curve past that step. */
export const meanLeavesPlateauAt = (runs: GridRunDoc[], plateau: number): number | null => meanFirstBelow(runs, plateau - PLATEAU_DROP);
