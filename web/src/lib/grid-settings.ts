// grid-settings.ts — the settings of a live warm-up grid run (Figure 4): peak lrs, warm-ups, seeds
// and steps, as the form's text fields and as checked numbers; their bounds, the engine config they
// make, and the settings a grid config was run with. Pure functions.
//
// Covers what the live-run form, the permalink parameters (figures/fig4/index.ts names them
// fig4.lrs, fig4.warmups, …) and the result slots (result-slots.svelte.ts) share. Leaves out the
// form itself (Figure 4) and the parameter names.
import type { GridConfig } from '../engine/documents';
import { checkInt, parseList } from './format';

/** The text fields of the form, as typed. */
export interface GridInputs {
  lrs: string;
  warmups: string;
  seeds: string;
  steps: string;
}
export type GridField = keyof GridInputs;

/** A live grid run as the URL names it (seeds = how many, 0…n−1). */
export interface GridSettings {
  lrs: number[];
  warmups: number[];
  seeds: number;
  steps: number;
}

/** The precomputed grid's settings (public/data/grid.json); used until that file arrives. */
export const GRID_DEFAULTS: GridSettings = { lrs: [0.001, 0.003], warmups: [0, 300], seeds: 2, steps: 500 };

/**
 * Bounds of the live-run settings (the engine accepts more; these keep a run short and the page
 * responsive). lr up to 10 — the engine's own limit — so that a divergent run can be shown.
 */
export const GRID_BOUNDS = {
  lrs: { min: 1e-5, max: 10, count: 2 },
  warmups: { min: 0, max: 1000, count: 3 },
  seeds: { min: 1, max: 4 },
  steps: { min: 10, max: 1000 },
} as const;

/** 1–2 peak lrs in [1e-5, 10], deduplicated and ascending; null when invalid. */
export function checkLrs(s: string): number[] | null {
  const b = GRID_BOUNDS.lrs;
  const xs = parseList(s);
  if (!xs || xs.length > b.count || xs.some((x) => !(x >= b.min && x <= b.max))) return null;
  return [...new Set(xs)].sort((a, c) => a - c);
}

/** 1–3 warm-up lengths, integers in [0, 1000], deduplicated and ascending; null when invalid. */
export function checkWarmups(s: string): number[] | null {
  const b = GRID_BOUNDS.warmups;
  const xs = parseList(s);
  if (!xs || xs.length > b.count || xs.some((w) => !Number.isInteger(w) || w < b.min || w > b.max)) return null;
  return [...new Set(xs)].sort((a, c) => a - c);
}

/**
 * Validate the settings; returns error keys (Figure 4's strings) per field, and the engine config
 * when valid. Bounds: GRID_BOUNDS (1–2 lrs in [1e-5, 10]; 1–3 warm-ups, integers in [0, 1000];
 * 1–4 seeds; 10–1000 steps).
 */
export function validateGrid(inp: GridInputs): {
  errors: Partial<Record<GridField, string>>;
  config: Partial<GridConfig> | null;
} {
  const errors: Partial<Record<GridField, string>> = {};
  const lrs = checkLrs(inp.lrs);
  if (!lrs) errors.lrs = 'err.lrs';
  const ws = checkWarmups(inp.warmups);
  if (!ws) errors.warmups = 'err.warmups';
  const seeds = checkInt(inp.seeds, GRID_BOUNDS.seeds.min, GRID_BOUNDS.seeds.max);
  if (seeds == null) errors.seeds = 'err.seeds';
  const steps = checkInt(inp.steps, GRID_BOUNDS.steps.min, GRID_BOUNDS.steps.max);
  if (steps == null) errors.steps = 'err.steps';
  if (Object.keys(errors).length) return { errors, config: null };
  return {
    errors,
    config: {
      norms: ['post', 'pre'],
      lrs: lrs!,
      warmups: ws!,
      seeds: Array.from({ length: seeds! }, (_, i) => i),
      steps: steps!,
    },
  };
}

/** The form's fields filled from a grid config (the drawn one); the defaults without one. */
export function inputsFrom(c: GridConfig | null | undefined): GridInputs {
  return {
    lrs: (c?.lrs ?? [0.001, 0.003]).join(', '),
    warmups: (c?.warmups ?? [0, 300]).join(', '),
    seeds: String(c?.seeds?.length ?? 2),
    steps: String(c?.steps ?? 500),
  };
}

/** Settings → the form's fields. */
export const gridInputsOf = (g: GridSettings): GridInputs => ({
  lrs: g.lrs.join(', '),
  warmups: g.warmups.join(', '),
  seeds: String(g.seeds),
  steps: String(g.steps),
});

/** The settings a grid config was run with; null without a config. */
export function gridSettingsOf(c: GridConfig | null | undefined): GridSettings | null {
  if (!c) return null;
  return { lrs: [...(c.lrs ?? [])], warmups: [...(c.warmups ?? [])], seeds: c.seeds?.length ?? 0, steps: c.steps };
}

const sameList = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export const sameGrid = (a: GridSettings, b: GridSettings): boolean =>
  a.seeds === b.seeds && a.steps === b.steps && sameList(a.lrs, b.lrs) && sameList(a.warmups, b.warmups);

/** A link's partial grid settings completed from the defaults. */
export function resolveGrid(p: Partial<GridSettings> | undefined, d: GridSettings = GRID_DEFAULTS): GridSettings {
  return { ...d, ...p };
}
