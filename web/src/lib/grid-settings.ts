// grid-settings.ts — the settings of a live warm-up grid run (Figure 4): peak lrs, warm-ups, seeds,
// steps, the optimizer and its settings, as the form's text fields and as checked numbers; their
// bounds, the engine config they make, and the settings a grid config was run with. Pure functions.
//
// Every value range is the engine's (generated/engine-schema.ts, from wasm/configs.cpp); the rules
// across fields (run count, memory, a warm-up longer than the run) are asked of the engine itself
// (lib/engine-check.svelte.ts, GRID_RULE_ANSWERS), so the form refuses what a run would. On top of that the page keeps a run short and its figure
// legible with LAB_LIMITS (how many lrs, warm-ups and seeds, how many steps), each within the
// engine's own (tests/unit/transforms.test.ts checks that they stay so).
//
// Covers what the live-run form, the permalink parameters (figures/fig4/index.ts names them
// fig4.lrs, fig4.warmups, …, fig4.optimizer and one per optimizer setting) and the result slots
// (result-slots.svelte.ts) share. Leaves out the form itself (Figure 4) and the parameter names.
import type { GridConfig } from '../engine/documents';
import {
  GRID_DEFAULTS as ENGINE_GRID,
  GRID_FIELDS,
  OPTIMIZERS,
  OPTIMIZER_INFO,
  PLACEMENTS,
  type FieldInfo,
  type OptimizerName,
  type PlacementName,
} from '../generated/engine-schema';
import type { RuleAnswers } from './engine-rules';
import { parseDecimal, parseList } from './format';
import type { Param } from './permalink';

/** The text fields of the form, as typed. `hyper`: the chosen optimizer's settings, by name. */
export interface GridInputs {
  /** the placements ticked, in the registry's order */
  placements: string[];
  lrs: string;
  warmups: string;
  seeds: string;
  steps: string;
  optimizer: string;
  hyper: Record<string, string>;
  /** the model's sizes (MODEL_KNOBS), by name; empty = the precomputed grid's */
  model?: Record<string, string>;
  /** one of WARMUP_SHAPES; absent = the engine's default */
  warmupShape?: string;
  /** the model's architecture choices (MODEL_CHOICES), by name; absent or empty = the precomputed grid's */
  arch?: Record<string, string>;
}
export type GridField = Exclude<keyof GridInputs, 'hyper' | 'optimizer' | 'placements' | 'model' | 'warmupShape' | 'arch'>;

/** A live grid run as the URL names it (seeds = how many, 0…n−1; hyper: settings away from the engine's defaults). */
export interface GridSettings {
  placements: PlacementName[];
  lrs: number[];
  warmups: number[];
  seeds: number;
  steps: number;
  optimizer: OptimizerName;
  hyper: Record<string, number>;
  /** the model's sizes (MODEL_KNOBS) away from the precomputed grid's */
  model: Partial<Record<ModelKnob, number>>;
  /** how the lr rises over each warm-up; absent = the engine's default (DEFAULT_WARMUP_SHAPE) */
  warmupShape?: WarmupShape;
  /** the model's architecture choices (MODEL_CHOICES) away from the precomputed grid's */
  arch: Partial<Record<ModelChoice, string>>;
}

/** The warm-up shapes (the engine's schema, optim/schedule.h) and the engine's default one. */
export type WarmupShape = GridConfig['warmup_shape'];
export const WARMUP_SHAPES = GRID_FIELDS.warmup_shape.choices as readonly WarmupShape[];
export const DEFAULT_WARMUP_SHAPE = GRID_FIELDS.warmup_shape.default as WarmupShape;
export const isWarmupShape = (s: unknown): s is WarmupShape => (WARMUP_SHAPES as readonly unknown[]).includes(s);
const shapeOf = (s: GridSettings) => s.warmupShape ?? DEFAULT_WARMUP_SHAPE;

/**
 * The model sizes a reader can change in the lab, each within the engine's bounds (GRID_FIELDS)
 * and the lab's own (`max`: a run the browser finishes in minutes, not hours). The one list the
 * form, the URL parameters (fig4.<name>), validation and the settings' comparison read.
 */
export const MODEL_KNOBS = [
  { name: 'layers', max: 24 },
  { name: 'd', max: 512 },
  { name: 'd_ff', max: 2048 },
  { name: 'batch', max: 16 },
  { name: 'seq', max: 128 },
] as const satisfies readonly { name: keyof GridConfig; max: number }[];
export type ModelKnob = (typeof MODEL_KNOBS)[number]['name'];

/** The bounds a model knob is checked against: the engine's minimum, the lab's maximum. */
export const knobBounds = (name: ModelKnob): { min: number; max: number } => ({
  min: GRID_FIELDS[name].min!,
  max: Math.min(GRID_FIELDS[name].max!, MODEL_KNOBS.find((k) => k.name === name)!.max),
});

/** fig<N>.<knob>: one model size of a figure's run settings (Figure 4's grid, Figure 3's probe),
 *  within knobBounds; `reason` is the figure's error key (e.g. "fig4:err.d"). */
export const knobParam = <S extends { model?: Partial<Record<ModelKnob, number>> }>(name: ModelKnob, reason: string): Param<S> => ({
  parse: (v) => {
    const x = checkKnob(name, v);
    return x == null ? null : ({ model: { [name]: x } } as Partial<S>);
  },
  reason,
});

/** A model knob as typed: an integer within knobBounds, or null. */
export function checkKnob(name: ModelKnob, s: string): number | null {
  const x = parseDecimal(s);
  const b = knobBounds(name);
  return x != null && Number.isInteger(x) && x >= b.min && x <= b.max ? x : null;
}

/**
 * The model's architecture choices a reader can change in the lab: the engine's choice fields of a
 * model (their values and defaults are the schema's), for what readers ask of the architecture:
 * whether Pre-LN needs its final LN (final_norm), RMSNorm in place of LayerNorm (norm_type), why
 * the embeddings are scaled by √d and the output tied to them (input_scale, output). The one list
 * the form, the URL parameters (fig4.<name>), validation and the settings' comparison read. The
 * attention mask is not one: the toy predicts the next token, which a bidirectional mask would show it.
 */
export const MODEL_CHOICES = ['norm_type', 'final_norm', 'output', 'input_scale'] as const satisfies readonly (keyof GridConfig)[];
export type ModelChoice = (typeof MODEL_CHOICES)[number];

/** A choice's values, as the engine's schema lists them. */
export const choiceValues = (name: ModelChoice): readonly string[] => GRID_FIELDS[name].choices ?? [];

/** A choice's value in a config (the engine's default where the config has none). */
export const choiceIn = (name: ModelChoice, c: Partial<GridConfig> | null | undefined): string =>
  (c?.[name] as string | undefined) ?? String(GRID_FIELDS[name].default);

/** A settings' architecture choice (absent: the engine's default, as for the precomputed grid). */
export const archOf = (s: Pick<GridSettings, 'arch'>, name: ModelChoice): string => s.arch?.[name] ?? choiceIn(name, null);

export const isChoice = (name: ModelChoice, v: unknown): v is string => typeof v === 'string' && choiceValues(name).includes(v);

/** fig<N>.<choice>: one architecture choice of a figure's run settings; `reason` is the figure's error key. */
export const choiceParam = <S extends { arch?: Partial<Record<ModelChoice, string>> }>(name: ModelChoice, reason: string): Param<S> => ({
  parse: (v) => (isChoice(name, v) ? ({ arch: { [name]: v } } as Partial<S>) : null),
  reason,
});

/** The precomputed grid's settings (public/data/grid.json); used until that file arrives. */
export const GRID_DEFAULTS: GridSettings = {
  placements: ['post', 'pre'],
  lrs: [0.001, 0.003],
  warmups: [0, 300],
  seeds: 2,
  steps: 500,
  optimizer: 'adam',
  hyper: {},
  model: {},
  arch: {},
};

/** How big a live run the lab offers (within the engine's bounds): panels, dash patterns, seeds,
 *  steps (from 10: a shorter curve shows nothing of a warm-up; up to 1000: minutes in a browser). */
export const LAB_LIMITS = { lrs: 2, warmups: 3, seeds: 4, minSteps: 10, steps: 1000, runs: 64 } as const;

/** How the form shows the engine's rules across the grid's fields (engine-rules.ts): the run
 *  count and memory at the placements and the model, a warm-up longer than the run as a warning. */
export const GRID_RULE_ANSWERS: RuleAnswers = {
  grid_size: { field: 'runs', key: 'err.runs' },
  model_fits_in_memory: { field: 'model', key: 'err.memory' },
  grid_fits_in_memory: { field: 'model', key: 'err.gridMemory' },
  warmup_reaches_peak: { field: 'warnings', key: 'warn.warmup' },
};

export const isPlacement = (s: string): s is PlacementName => (PLACEMENTS as readonly string[]).includes(s);

/** 1 or more registered placements, deduplicated, in the registry's order; null when invalid. */
export function checkPlacements(xs: readonly string[]): PlacementName[] | null {
  if (!xs.length || xs.some((p) => !isPlacement(p))) return null;
  return PLACEMENTS.filter((p) => xs.includes(p));
}

/**
 * Presets of the lab for the article's remaining claims: the settings they put in the form (the rest
 * stay as they are). Their labels are Figure 4's strings `preset.<key>`.
 */
export const LAB_PRESETS: readonly { key: string; settings: Partial<GridSettings> | 'reference' }[] = [
  // The quick look: the cheapest configuration in which the article's three toy claims hold on the
  // seed mean over 4 seeds (scripts/quick-look-search.mjs, docs/reproduction.md "Quick look").
  {
    key: 'quick',
    settings: {
      placements: ['post', 'pre'],
      lrs: [0.001],
      warmups: [0, 120],
      seeds: 4,
      steps: 200,
      optimizer: 'adam',
      hyper: {},
      model: { layers: 6, d: 128, d_ff: 512, batch: 2, seq: 32 },
    },
  },
  // The article's configuration: the precomputed grid's settings (filled in from its file).
  { key: 'full', settings: 'reference' },
  // "DeepNorm works in the same direction as Pre-LN's final LN": DeepNorm next to Post-LN, no warm-up.
  { key: 'deepnorm', settings: { placements: ['post', 'deepnorm'], warmups: [0], lrs: [0.001, 0.003], optimizer: 'adam', hyper: {} } },
  // "For Pre-LN warm-up is insurance": Pre-LN at high peak lrs, with and without warm-up.
  { key: 'preHighLr', settings: { placements: ['pre'], warmups: [0, 100], lrs: [0.01, 0.03], optimizer: 'adam', hyper: {} } },
];

/** The engine's bounds of a grid field (generated from its schema). */
export const fieldBounds = (name: keyof typeof GRID_FIELDS): FieldInfo => GRID_FIELDS[name];

/** "(0, 10]" / "[0, 100000]" */
export const rangeText = (f: FieldInfo, max = f.max): string => `${f.minExclusive ? '(' : '['}${f.min}, ${max}]`;

const within = (f: FieldInfo, x: number) => (f.minExclusive ? x > f.min! : x >= f.min!) && x <= f.max! && (!/^u?int/.test(f.type) || Number.isInteger(x));

/** 1…LAB_LIMITS.lrs peak lrs in the engine's range, deduplicated and ascending; null when invalid. */
export function checkLrs(s: string): number[] | null {
  const xs = parseList(s);
  if (!xs || xs.length > LAB_LIMITS.lrs || xs.some((x) => !within(GRID_FIELDS.lrs, x))) return null;
  return [...new Set(xs)].sort((a, c) => a - c);
}

/** 1…LAB_LIMITS.warmups warm-up lengths, integers in the engine's range, deduplicated and ascending; null when invalid. */
export function checkWarmups(s: string): number[] | null {
  const xs = parseList(s);
  if (!xs || xs.length > LAB_LIMITS.warmups || xs.some((w) => !within(GRID_FIELDS.warmups, w))) return null;
  return [...new Set(xs)].sort((a, c) => a - c);
}

/** How many seeds: an integer in [1, LAB_LIMITS.seeds]. */
export const checkSeeds = (s: string): number | null => {
  const x = parseDecimal(s);
  return x != null && Number.isInteger(x) && x >= 1 && x <= LAB_LIMITS.seeds ? x : null;
};

/** Steps: an integer in the engine's range and in [LAB_LIMITS.minSteps, LAB_LIMITS.steps]. */
export const checkSteps = (s: string): number | null => {
  const x = parseDecimal(s);
  return x != null && within(GRID_FIELDS.steps, x) && x >= LAB_LIMITS.minSteps && x <= LAB_LIMITS.steps ? x : null;
};

export const isOptimizer = (s: string): s is OptimizerName => (OPTIMIZERS as readonly string[]).includes(s);

/** The settings of an optimizer: the schema's fields that apply only when it is chosen. */
export function optimizerFields(o: string): [string, FieldInfo][] {
  return Object.entries(GRID_FIELDS as Record<string, FieldInfo>).filter(([, f]) => f.onlyWhen?.optimizer?.includes(o));
}

/** Every optimizer setting of any optimizer (its name → the schema's field). */
export const ALL_OPTIMIZER_FIELDS: [string, FieldInfo][] = Object.entries(GRID_FIELDS as Record<string, FieldInfo>).filter(([, f]) => f.onlyWhen?.optimizer);

/** One optimizer setting as typed: a number in the engine's range, or null. */
export function checkHyper(name: string, s: string): number | null {
  const f = (GRID_FIELDS as Record<string, FieldInfo>)[name];
  const x = parseDecimal(s);
  return f && x != null && within(f, x) ? x : null;
}

/** An optimizer's suggested peak lr (the engine's; its settings' defaults are the schema's). */
export const suggestedLr = (o: string): number | null => OPTIMIZER_INFO.find((x) => x.name === o)?.suggested_lr ?? null;

/** The peak lrs typed for optimizer `from`, carried over to `to` as the same multiples of each
 *  one's suggested lr (Adam's 1e-3, 3e-3 → SGD's 0.05, 0.15), so a switch of optimizer does not keep
 *  a rate meant for another; the text as it was when it does not parse or either has no suggestion. */
export function lrsForOptimizer(lrs: string, from: string, to: string): string {
  const a = suggestedLr(from);
  const b = suggestedLr(to);
  const xs = parseList(lrs);
  if (a == null || b == null || !xs || a === b) return lrs;
  return xs.map((x) => String(+((x / a) * b).toPrecision(6))).join(', ');
}

/**
 * Validate each field against the engine's schema; returns error keys (Figure 4's strings) per
 * field (`hyper.<name>` for an optimizer setting), and the engine config when every field is valid.
 * The rules across fields (run count, memory, a warm-up longer than the run) are the engine's:
 * the form asks it (engine-check.svelte.ts, GRID_RULE_ANSWERS).
 */
export function validateGrid(inp: GridInputs): {
  errors: Partial<Record<string, string>>;
  config: Partial<GridConfig> | null;
} {
  const errors: Partial<Record<string, string>> = {};
  const placements = checkPlacements(inp.placements ?? []);
  if (!placements) errors.placements = 'err.placements';
  const lrs = checkLrs(inp.lrs);
  if (!lrs) errors.lrs = 'err.lrs';
  const ws = checkWarmups(inp.warmups);
  if (!ws) errors.warmups = 'err.warmups';
  const seeds = checkSeeds(inp.seeds);
  if (seeds == null) errors.seeds = 'err.seeds';
  const steps = checkSteps(inp.steps);
  if (steps == null) errors.steps = 'err.steps';
  const optimizer = isOptimizer(inp.optimizer) ? inp.optimizer : null;
  if (!optimizer) errors.optimizer = 'err.optimizer';
  const warmupShape = inp.warmupShape == null || inp.warmupShape === '' ? DEFAULT_WARMUP_SHAPE : isWarmupShape(inp.warmupShape) ? inp.warmupShape : null;
  if (!warmupShape) errors.warmupShape = 'err.warmupShape';
  const hyper: Record<string, number> = {};
  for (const [name] of optimizerFields(inp.optimizer)) {
    const typed = inp.hyper?.[name];
    if (typed == null || typed.trim() === '') continue; // empty = the engine's default
    const x = checkHyper(name, typed);
    if (x == null) errors[`hyper.${name}`] = 'err.hyper';
    else hyper[name] = x;
  }
  const model: Partial<Record<ModelKnob, number>> = {};
  for (const { name } of MODEL_KNOBS) {
    const typed = inp.model?.[name];
    if (typed == null || typed.trim() === '') continue; // empty = the precomputed grid's
    const x = checkKnob(name, typed);
    if (x == null) errors[`model.${name}`] = `err.${name}`;
    else model[name] = x;
  }
  const arch: Partial<Record<ModelChoice, string>> = {};
  for (const name of MODEL_CHOICES) {
    const typed = inp.arch?.[name];
    if (typed == null || typed === '') continue; // empty = the precomputed grid's
    if (isChoice(name, typed)) arch[name] = typed;
    else errors[`arch.${name}`] = 'err.choice';
  }
  if (Object.keys(errors).length) return { errors, config: null };
  return {
    errors,
    config: {
      ...model,
      ...(arch as Partial<Pick<GridConfig, ModelChoice>>), // each checked against the schema's values above
      placements: placements!,
      lrs: lrs!,
      warmups: ws!,
      seeds: Array.from({ length: seeds! }, (_, i) => i),
      steps: steps!,
      optimizer: optimizer!,
      warmup_shape: warmupShape!,
      ...hyper,
    },
  };
}

/** The keys of a grid config that Figure 4's settings choose (the rest come from the precomputed
 *  grid; a model knob left empty keeps the precomputed grid's value). */
export const CHOSEN_KEYS = new Set(['placements', 'warmups', 'warmup_shape', 'lrs', 'seeds', 'steps', 'optimizer', ...ALL_OPTIMIZER_FIELDS.map(([n]) => n)]);

const fmtHyper = (h: Record<string, number>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, String(v)]));

/** The form's fields filled from a grid config (the drawn one); the defaults without one. */
export function inputsFrom(c: GridConfig | null | undefined): GridInputs {
  const s = gridSettingsOf(c) ?? GRID_DEFAULTS;
  return gridInputsOf(s);
}

/** Settings → the form's fields. */
export const gridInputsOf = (g: GridSettings): GridInputs => ({
  placements: [...g.placements],
  lrs: g.lrs.join(', '),
  warmups: g.warmups.join(', '),
  seeds: String(g.seeds),
  steps: String(g.steps),
  optimizer: g.optimizer,
  hyper: fmtHyper(g.hyper),
  model: fmtHyper(g.model ?? {}),
  warmupShape: shapeOf(g),
  arch: { ...g.arch },
});

/** The settings a grid config was run with (its optimizer settings that differ from the engine's
 *  defaults, its model sizes and architecture choices that differ from `reference`'s, the
 *  precomputed grid's config); null without a config. */
export function gridSettingsOf(c: GridConfig | null | undefined, reference: Partial<GridConfig> | null = null): GridSettings | null {
  if (!c) return null;
  const model: Partial<Record<ModelKnob, number>> = {};
  for (const { name } of MODEL_KNOBS) {
    const v = c[name];
    if (typeof v === 'number' && v !== (reference?.[name] ?? ENGINE_GRID[name])) model[name] = v;
  }
  const arch: Partial<Record<ModelChoice, string>> = {};
  for (const name of MODEL_CHOICES) {
    const v = choiceIn(name, c); // absent: made before the choice existed, so the engine's default
    if (isChoice(name, v) && v !== choiceIn(name, reference)) arch[name] = v;
  }
  const optimizer = c.optimizer && isOptimizer(c.optimizer) ? c.optimizer : 'adam';
  const hyper: Record<string, number> = {};
  for (const [name, f] of optimizerFields(optimizer)) {
    const v = (c as unknown as Record<string, unknown>)[name];
    if (typeof v === 'number' && v !== f.default) hyper[name] = v;
  }
  const placements = (c.placements ?? []).filter(isPlacement);
  const warmupShape = isWarmupShape(c.warmup_shape) ? c.warmup_shape : DEFAULT_WARMUP_SHAPE; // absent: made before the shapes
  return {
    placements,
    lrs: [...(c.lrs ?? [])],
    warmups: [...(c.warmups ?? [])],
    seeds: c.seeds?.length ?? 0,
    steps: c.steps,
    optimizer,
    hyper,
    model,
    warmupShape,
    arch,
  };
}

const sameList = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const sameHyper = (a: Record<string, number>, b: Record<string, number>) => Object.keys({ ...a, ...b }).every((k) => a[k] === b[k]);

const sameNames = (a: readonly string[] = [], b: readonly string[] = []) => a.length === b.length && a.every((x, i) => x === b[i]);

export const sameGrid = (a: GridSettings, b: GridSettings): boolean =>
  sameNames(a.placements, b.placements) &&
  a.seeds === b.seeds &&
  a.steps === b.steps &&
  sameList(a.lrs, b.lrs) &&
  sameList(a.warmups, b.warmups) &&
  a.optimizer === b.optimizer &&
  sameHyper(a.hyper ?? {}, b.hyper ?? {}) &&
  sameHyper(a.model ?? {}, b.model ?? {}) &&
  shapeOf(a) === shapeOf(b) &&
  MODEL_CHOICES.every((n) => archOf(a, n) === archOf(b, n));

/** A link's partial grid settings completed from the defaults. */
export function resolveGrid(p: Partial<GridSettings> | undefined, d: GridSettings = GRID_DEFAULTS): GridSettings {
  return {
    ...d,
    ...p,
    hyper: { ...(p?.optimizer && p.optimizer !== d.optimizer ? {} : d.hyper), ...p?.hyper },
    model: { ...d.model, ...p?.model },
    arch: { ...d.arch, ...p?.arch },
  };
}

/** The engine's default of every grid field (for the form's placeholders). */
export const ENGINE_GRID_DEFAULTS = ENGINE_GRID;
