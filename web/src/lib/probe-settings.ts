// probe-settings.ts — the settings of a live probe run (Figures 2 and 3): seeds, batches, depths and
// the small preset; checking them, the engine config they make, and the settings a probe config was
// run with. Pure functions.
//
// Covers what the live-run form, the permalink parameters (figures/fig3/index.ts names them
// fig3.model, fig3.seeds, …) and the result slots (result-slots.svelte.ts) share. Leaves out the
// form itself (Figure 3) and the parameter names.
import type { ProbeConfig } from '../engine/documents';
import { parseList } from './format';

/** A live probe run as the form and the URL describe it (small = the SMALL_MODEL shape). */
export interface ProbeSettings {
  /** how many seeds: the engine's seeds 0 … seeds − 1 */
  seeds: number;
  batches: number;
  depths: number[];
  small: boolean;
}

/** The precomputed probe's settings (public/data/probe.json); used until that file arrives. */
export const PROBE_DEFAULTS: ProbeSettings = { seeds: 5, batches: 20, depths: [6, 8, 10, 12, 14], small: false };

/** The tests' and phones' fast preset. */
export const SMALL_MODEL = { layers: 6, d: 64, d_ff: 128, vocab: 100, seq: 16, batch: 4 } as const;
export const SMALL_PRESET: ProbeSettings = { seeds: 2, batches: 2, depths: [2, 4], small: true };

export type ProbeField = 'seeds' | 'batches' | 'depths';

const isInt = (v: number, lo: number, hi: number) => Number.isInteger(v) && v >= lo && v <= hi;

/** Field → error key (Figure 3's strings) for out-of-range settings; empty when valid. */
export function validateProbe(c: ProbeSettings): Partial<Record<ProbeField, string>> {
  const e: Partial<Record<ProbeField, string>> = {};
  if (!isInt(c.seeds, 1, 5)) e.seeds = 'err.seeds';
  if (!isInt(c.batches, 1, 20)) e.batches = 'err.batches';
  if (!c.depths.length || c.depths.some((d) => !isInt(d, 1, 48))) e.depths = 'err.depths';
  return e;
}

/** 1–16 depths, integers in [1, 48], deduplicated and ascending; null when invalid. */
export function checkDepths(s: string): number[] | null {
  const xs = parseList(s);
  if (!xs || xs.length > 16 || xs.some((d) => !Number.isInteger(d) || d < 1 || d > 48)) return null;
  return [...new Set(xs)].sort((a, b) => a - b);
}

/** The engine config for a live run; model keys from `base` (the drawn result) unless small. */
export function probeConfig(c: ProbeSettings, base: Partial<ProbeConfig> | null): Partial<ProbeConfig> {
  const model = c.small
    ? SMALL_MODEL
    : {
        layers: base?.layers ?? 6,
        d: base?.d ?? 512,
        d_ff: base?.d_ff ?? 1024,
        vocab: base?.vocab ?? 1000,
        seq: base?.seq ?? 32,
        batch: base?.batch ?? 8,
      };
  const depths = [...new Set(c.depths)].sort((a, b) => a - b);
  return {
    ...model,
    seeds: Array.from({ length: c.seeds }, (_, i) => i),
    batches: c.batches,
    depth_batches: Math.max(1, Math.round(c.batches / 2)),
    depths,
  };
}

/** The settings a probe config was run with; null without a config. */
export function probeSettingsOf(c: ProbeConfig | null | undefined): ProbeSettings | null {
  if (!c) return null;
  const small = (Object.keys(SMALL_MODEL) as (keyof typeof SMALL_MODEL)[]).every((k) => c[k] === SMALL_MODEL[k]);
  return { seeds: c.seeds?.length ?? 0, batches: c.batches, depths: [...(c.depths ?? [])], small };
}

const sameList = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export const sameProbe = (a: ProbeSettings, b: ProbeSettings): boolean =>
  a.seeds === b.seeds && a.batches === b.batches && a.small === b.small && sameList(a.depths, b.depths);

/** What a link's probe settings are read against: the small preset, or the defaults. */
export const probeBase = (small: boolean | undefined, d: ProbeSettings): ProbeSettings =>
  small ? { ...SMALL_PRESET, depths: [...SMALL_PRESET.depths] } : { ...d, depths: [...d.depths] };

/** A link's partial probe settings completed from the base (fig3.model=small alone = the small preset). */
export function resolveProbe(p: Partial<ProbeSettings> | undefined, d: ProbeSettings = PROBE_DEFAULTS): ProbeSettings {
  return { ...probeBase(p?.small, d), ...p, small: p?.small ?? false };
}
