// composer.ts — the placement composer's spec as a field table (lib/fields.ts) and what is derived
// from it. Pure.
//
// The table's fields are the placement spec's keys, flat (dotted paths: "attention.norm_input",
// "residual_scale.a"), as the engine describes them (generated/engine-schema.ts
// PLACEMENT_SPEC_FIELDS; wasm/placements/spec.cpp): type, default, bounds, choices and onlyWhen are
// the engine's, never typed again. Its reference is Pre-LN's spec; its other bases are the engine's
// named presets (PLACEMENT_PRESETS: every registered placement and the literature's), so a link reads
// `fig16.from=b2t&fig16.qk_norm=layernorm` (a preset, then the keys set away from it) and the page's
// URL banner names a bad key by the table's message. specOf writes the flat values as the engine's
// nested spec; flatOf reads a spec back; the config of the composer's engine call (init-profile) and
// of "Train it" (a grid with placement_spec) come from specOf.
// Leaves out: drawing (figures/fig16), the live runs (composer-run.svelte.ts).
import type { ExperimentResult, ProbeResult } from '../engine/documents';
import { PLACEMENT_PRESETS, PLACEMENT_SPEC_FIELDS } from '../generated/engine-schema';
import { FULL, applies, configOf, initialSettings, type Config, type Row, type Settings, type Table } from './fields';

/** The name the composed placement runs under (the spec's `name`; not a registered placement's). */
export const COMPOSED = 'composed';

/** The preset the composer opens with: Pre-LN (the reference of its table). */
const REFERENCE_PRESET = 'pre-spec';

/** The group each key's control is shown in (a figure string `ctl.<group>`), in the order shown. */
const GROUPS: readonly [string, (key: string) => boolean][] = [
  ['where', (k) => k.startsWith('attention.') || k.startsWith('ffn.') || k === 'final_norm' || k === 'b2t'],
  ['norm', (k) => k === 'norm' || k.startsWith('norm.') || k === 'qk_norm'],
  ['residual', (k) => k.startsWith('residual_scale')],
  ['init', (k) => k === 'init_scale'],
];
const groupOf = (k: string) => GROUPS.find(([, f]) => f(k))?.[0] ?? 'where';

/** A spec's flat values (every key of the table; a key absent from the spec is its default; an
 *  absent norm is the config's norm_type, LayerNorm at the composer's default). */
export function flatOf(spec: Readonly<Record<string, unknown>>): Config {
  const out: Config = {};
  for (const [k, f] of Object.entries(PLACEMENT_SPEC_FIELDS)) {
    const [head, tail] = k.split('.') as [string, string | undefined];
    const v = spec[head];
    if (tail == null) out[k] = v != null && typeof v === 'object' ? (v as Record<string, unknown>).kind : (v ?? f.default);
    else out[k] = v != null && typeof v === 'object' && tail in (v as object) ? (v as Record<string, unknown>)[tail] : f.default;
  }
  return out;
}

/** The engine's placement presets, each as flat values: the composer's named starting points. */
export const COMPOSER_PRESETS: readonly { name: string; label: string; doc: string; values: Config }[] = PLACEMENT_PRESETS.map((p) => ({
  name: p.name,
  label: p.label,
  doc: p.doc,
  values: flatOf(p.spec as Record<string, unknown>),
}));

const reference = COMPOSER_PRESETS.find((p) => p.name === REFERENCE_PRESET)!.values;

const rowOf = (field: string): Row => {
  const type = PLACEMENT_SPEC_FIELDS[field].type;
  return { field, url: `fig16.${field}`, control: type === 'bool' ? 'toggle' : type === 'choice' ? 'select' : 'number', group: `ctl.${groupOf(field)}` };
};

/** The composer's field table (URL fig16.*): a row per spec key, grouped; the presets as bases. */
export const COMPOSER: Table = {
  slot: 'fig16',
  kind: 'init-profile',
  figure: 'fig16',
  schema: PLACEMENT_SPEC_FIELDS,
  config: reference,
  rows: GROUPS.flatMap(([g]) => Object.keys(PLACEMENT_SPEC_FIELDS).filter((k) => groupOf(k) === g)).map(rowOf),
  bases: {
    url: 'fig16.from',
    values: Object.fromEntries(COMPOSER_PRESETS.filter((p) => p.name !== REFERENCE_PRESET).map((p) => [p.name, p.values])),
  },
  // the spec's rules across its keys (PLACEMENT_SPEC_RULES), each in the composer's words
  rules: {
    b2t_needs_norm_after: { field: 'b2t', key: 'rule.b2t_needs_norm_after' },
    b2t_needs_norms: { field: 'b2t', key: 'rule.b2t_needs_norms' },
    gate_over_zero_branches: { field: 'init_scale', key: 'rule.gate_over_zero_branches' },
  },
};

/** The flat values of composer settings. */
export const valuesOf = (s: Settings): Config => configOf(COMPOSER, reference, s);

/** The preset the settings are (the name of a base they set nothing away from), or null. */
export const presetOf = (s: Settings): string | null => (Object.keys(s.values).length ? null : s.base === FULL ? REFERENCE_PRESET : s.base);

/** The engine's nested spec of flat values `c` (keys that do not apply left out), named `name` and
 *  labelled `label` (the preset's label, or "composed"). */
export function specOf(c: Config, name = COMPOSED, label?: string): Record<string, unknown> {
  const v = (k: string) => c[k] ?? PLACEMENT_SPEC_FIELDS[k].default;
  const sub = (s: string) => ({ norm_input: v(`${s}.norm_input`), norm_branch: v(`${s}.norm_branch`), norm_after: v(`${s}.norm_after`) });
  const kindWith = (head: string) => {
    const kind = v(head);
    const params = Object.keys(PLACEMENT_SPEC_FIELDS).filter((k) => k.startsWith(`${head}.`) && applies(COMPOSER, k, { ...c, [head]: kind }));
    return params.length ? { kind, ...Object.fromEntries(params.map((k) => [k.slice(head.length + 1), v(k)])) } : kind;
  };
  return {
    name,
    label: label ?? name,
    attention: sub('attention'),
    ffn: sub('ffn'),
    final_norm: v('final_norm'),
    residual_scale: kindWith('residual_scale'),
    init_scale: v('init_scale'),
    norm: kindWith('norm'),
    qk_norm: v('qk_norm'),
    b2t: v('b2t'),
  };
}

/** The label of composer settings: the preset's (the engine's label) when they are one, else null
 *  (the page's "composed"). */
export const presetLabel = (s: Settings): string | null => COMPOSER_PRESETS.find((p) => p.name === presetOf(s))?.label ?? null;

/** The init-profile config of the composed placement (the reference lines are REFERENCE_CONFIG). */
export const profileConfig = (s: Settings): Config => ({ placements: [COMPOSED], placement_spec: specOf(valuesOf(s), COMPOSED, presetLabel(s) ?? COMPOSED) });

/** The init-profile config of the reference lines, computed once: Post-LN and Pre-LN. */
export const REFERENCE_CONFIG: Config = { placements: ['post', 'pre'] };

/** The composer's settings as it opens (no link, no change): its reference preset. */
export const OPENING: Settings = initialSettings(COMPOSER);

/** The init-profile config of the composed placement as the composer opens. */
export const OPENING_CONFIG: Config = profileConfig(OPENING);

/** Whether settings `s` are the composer's opening ones (the spec its precomputed document holds). */
export const isOpening = (s: Settings): boolean => s.base === OPENING.base && Object.keys(s.values).length === 0;

/** The composer's precomputed documents (scripts/precompute.mjs `composer`), a file of the site
 *  (under public/): the reference lines (REFERENCE_CONFIG) and the composed placement as it opens
 *  (OPENING_CONFIG). */
export const COMPOSER_FILE = 'data/composer.json';

/** The file COMPOSER_FILE: both documents, each as the engine wrote it, stamped `precomputed`. */
export interface ComposerPrecomputed {
  reference: InitProfileDoc;
  composed: InitProfileDoc;
}

/** An init-profile document (docs/experiments.md): the probe's document of its placements, and the
 *  output's sensitivity against depth per placement. */
export interface InitProfileDoc extends ExperimentResult {
  probe: ProbeResult;
  sensitivity: Record<string, { depths: { layers: number; dlogits2: { mean: number; std: number; per_seed: number[] } }[]; slope: number | null }>;
}

/** The spec's top-level keys (besides the table's): its texts. */
const TEXT_KEYS: Readonly<Record<string, number>> = { name: 32, label: 40, doc: 200 };

/**
 * What is wrong with a placement spec by the engine's table (PLACEMENT_SPEC_FIELDS): each key of the
 * wrong type, out of its bounds or unknown, named by its path ("placement_spec.residual_scale.a = 0
 * (the engine takes a number above 0 to 4)"). Empty when every key is one the engine describes with
 * a value it takes; the rules across keys (B2T needs ffn.norm_after) are the engine's to answer. For
 * a stored or imported run's config (runs/config-check.ts), not for the composer's own controls.
 */
export function specProblems(spec: unknown): string[] {
  const at = (k: string) => `placement_spec.${k}`;
  if (typeof spec === 'string') {
    if (spec.length > 4096) return [`placement_spec (the engine takes at most 4096 characters)`];
    try {
      spec = JSON.parse(spec);
    } catch {
      return ['placement_spec (the engine takes a JSON object)'];
    }
  }
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) return ['placement_spec (the engine takes a JSON object)'];
  const out: string[] = [];
  const show = (v: unknown) => (typeof v === 'string' ? `"${v.slice(0, 40)}"` : String(JSON.stringify(v)).slice(0, 40));
  const check = (key: string, v: unknown) => {
    const f = PLACEMENT_SPEC_FIELDS[key];
    if (!f) return out.push(`${at(key).slice(0, 60)} (not a key of a placement spec)`);
    const ok =
      f.type === 'bool'
        ? typeof v === 'boolean'
        : f.type === 'choice'
          ? typeof v === 'string' && !!f.choices?.includes(v)
          : typeof v === 'number' && Number.isFinite(v) && (f.minExclusive ? v > f.min! : v >= f.min!) && v <= f.max!;
    if (!ok) {
      const takes =
        f.type === 'bool'
          ? 'true or false'
          : f.type === 'choice'
            ? `one of ${f.choices!.join(', ')}`
            : `a number ${f.minExclusive ? 'above' : 'from'} ${f.min} to ${f.max}`;
      out.push(`${at(key)} = ${show(v)} (the engine takes ${takes})`);
    }
  };
  for (const [k, v] of Object.entries(spec as Record<string, unknown>)) {
    if (k in TEXT_KEYS) {
      if (typeof v !== 'string' || !v.length || v.length > TEXT_KEYS[k]) out.push(`${at(k)} (the engine takes a text of 1 to ${TEXT_KEYS[k]} characters)`);
    } else if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(k in PLACEMENT_SPEC_FIELDS && PLACEMENT_SPEC_FIELDS[k].type !== 'choice')) {
      // a sublayer's norms, or a kind with its parameters ({"kind": "completep", "a": 1})
      for (const [k2, v2] of Object.entries(v as Record<string, unknown>)) check(k2 === 'kind' ? k : `${k}.${k2}`, v2);
    } else check(k, v);
  }
  return out;
}
