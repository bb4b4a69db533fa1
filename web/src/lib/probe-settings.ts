// probe-settings.ts — the settings of a live probe run (Figures 2 and 3): seeds, batches, depths,
// the small preset and the model's sizes; checking them, the engine config they make, and the
// settings a probe config was run with. Pure functions.
//
// Covers what the live-run form, the permalink parameters (figures/fig3/index.ts names them
// fig3.model, fig3.seeds, …, fig3.d, …) and the result slots (result-slots.svelte.ts) share. Leaves
// out the form itself (Figure 3) and the parameter names.
import type { ProbeConfig } from '../engine/documents';
import type { RuleAnswers } from './engine-rules';
import { parseList } from './format';
import { knobBounds, MODEL_KNOBS, type ModelKnob } from './grid-settings';

/** A live probe run as the form and the URL describe it (small = the SMALL_MODEL shape). */
export interface ProbeSettings {
  /** how many seeds: the engine's seeds 0 … seeds − 1 */
  seeds: number;
  batches: number;
  depths: number[];
  small: boolean;
  /** the model's sizes (the lab's MODEL_KNOBS, grid-settings.ts) away from the base model: the small
   *  one, or the drawn probe's; absent or empty = the base's */
  model?: Partial<Record<ModelKnob, number>>;
}

/** The precomputed probe's settings (public/data/probe.json); used until that file arrives. */
export const PROBE_DEFAULTS: ProbeSettings = { seeds: 5, batches: 20, depths: [6, 8, 10, 12, 14], small: false };

/** The tests' and phones' fast preset. */
export const SMALL_MODEL = { layers: 6, d: 64, d_ff: 128, vocab: 100, seq: 16, batch: 4 } as const;
export const SMALL_PRESET: ProbeSettings = { seeds: 2, batches: 2, depths: [2, 4], small: true };

/** The article's probe model (the precomputed probe's), the base of a full-size live probe. */
export const PROBE_MODEL = { layers: 6, d: 512, d_ff: 1024, vocab: 1000, seq: 32, batch: 8 } as const;

export type ProbeField = 'seeds' | 'batches' | 'depths' | 'model' | `model.${ModelKnob}`;

const isInt = (v: number, lo: number, hi: number) => Number.isInteger(v) && v >= lo && v <= hi;

/** How Figure 3's form shows the engine's rules across the probe's fields (engine-rules.ts): the
 *  deepest model it builds must fit in memory. */
export const PROBE_RULE_ANSWERS: RuleAnswers = {
  probe_fits_in_memory: { field: 'model', key: 'err.memory' },
  model_fits_in_memory: { field: 'model', key: 'err.memory' },
};

/** Field → error key (Figure 3's strings) for out-of-range settings; empty when valid. The rules
 *  across fields (memory) are the engine's: the form asks it (PROBE_RULE_ANSWERS). */
export function validateProbe(c: ProbeSettings): Partial<Record<ProbeField, string>> {
  const e: Partial<Record<ProbeField, string>> = {};
  if (!isInt(c.seeds, 1, 5)) e.seeds = 'err.seeds';
  if (!isInt(c.batches, 1, 20)) e.batches = 'err.batches';
  if (!c.depths.length || c.depths.some((d) => !isInt(d, 1, 48))) e.depths = 'err.depths';
  for (const { name } of MODEL_KNOBS) {
    const v = c.model?.[name];
    if (v == null) continue;
    const b = knobBounds(name);
    if (!isInt(v, b.min, b.max)) e[`model.${name}`] = `err.${name}`;
  }
  return e;
}

/** The probe's model: the small one or `base`'s (the article's when absent), with the settings' sizes. */
function modelOf(c: ProbeSettings, base: Partial<ProbeConfig> | null) {
  return { ...baseModel(c.small, base), ...c.model };
}

/** The model a probe's sizes are read against: the small one, or `base`'s model keys (the drawn
 *  probe's config) over the article's (Figure 3's form shows it as each size field's placeholder). */
export function baseModel(small: boolean, base: Partial<ProbeConfig> | null): Record<keyof typeof PROBE_MODEL, number> {
  return small ? { ...SMALL_MODEL } : { ...PROBE_MODEL, ...numbersOf(base, Object.keys(PROBE_MODEL) as (keyof typeof PROBE_MODEL)[]) };
}

/** 1–16 depths, integers in [1, 48], deduplicated and ascending; null when invalid. */
export function checkDepths(s: string): number[] | null {
  const xs = parseList(s);
  if (!xs || xs.length > 16 || xs.some((d) => !Number.isInteger(d) || d < 1 || d > 48)) return null;
  return [...new Set(xs)].sort((a, b) => a - b);
}

/** The engine config for a live run; model keys from `base` (the drawn result) unless small, then
 *  the settings' own sizes. */
export function probeConfig(c: ProbeSettings, base: Partial<ProbeConfig> | null): Partial<ProbeConfig> {
  const depths = [...new Set(c.depths)].sort((a, b) => a - b);
  return {
    ...modelOf(c, base),
    seeds: Array.from({ length: c.seeds }, (_, i) => i),
    batches: c.batches,
    depth_batches: Math.max(1, Math.round(c.batches / 2)),
    depths,
  };
}

/** The settings a probe config was run with; null without a config. Small when its model is
 *  SMALL_MODEL exactly; otherwise its sizes are read against `reference` (the precomputed probe's
 *  config; the article's model when absent). */
export function probeSettingsOf(c: ProbeConfig | null | undefined, reference: Partial<ProbeConfig> | null = null): ProbeSettings | null {
  if (!c) return null;
  const small = (Object.keys(SMALL_MODEL) as (keyof typeof SMALL_MODEL)[]).every((k) => c[k] === SMALL_MODEL[k]);
  const base: Record<ModelKnob, number> = small
    ? SMALL_MODEL
    : {
        ...PROBE_MODEL,
        ...numbersOf(
          reference,
          MODEL_KNOBS.map((k) => k.name),
        ),
      };
  const model: Partial<Record<ModelKnob, number>> = {};
  for (const { name } of MODEL_KNOBS) if (typeof c[name] === 'number' && c[name] !== base[name]) model[name] = c[name];
  const s: ProbeSettings = { seeds: c.seeds?.length ?? 0, batches: c.batches, depths: [...(c.depths ?? [])], small };
  if (Object.keys(model).length) s.model = model;
  return s;
}

/** The keys of `c` among `keys` that hold numbers. */
const numbersOf = <K extends string>(c: Partial<Record<K, unknown>> | null, keys: readonly K[]): Partial<Record<K, number>> =>
  Object.fromEntries(keys.flatMap((k) => (typeof c?.[k] === 'number' ? [[k, c[k]]] : []))) as Partial<Record<K, number>>;

const sameModel = (a: ProbeSettings['model'], b: ProbeSettings['model']) => MODEL_KNOBS.every(({ name }) => (a?.[name] ?? null) === (b?.[name] ?? null));

const sameList = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export const sameProbe = (a: ProbeSettings, b: ProbeSettings): boolean =>
  a.seeds === b.seeds && a.batches === b.batches && a.small === b.small && sameList(a.depths, b.depths) && sameModel(a.model, b.model);

/** What a link's probe settings are read against: the small preset, or the defaults. */
export const probeBase = (small: boolean | undefined, d: ProbeSettings): ProbeSettings =>
  small ? { ...SMALL_PRESET, depths: [...SMALL_PRESET.depths] } : { ...d, depths: [...d.depths] };

/** A link's partial probe settings completed from the base (fig3.model=small alone = the small preset). */
export function resolveProbe(p: Partial<ProbeSettings> | undefined, d: ProbeSettings = PROBE_DEFAULTS): ProbeSettings {
  return { ...probeBase(p?.small, d), ...p, small: p?.small ?? false };
}
