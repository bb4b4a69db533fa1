// fields.ts — the field table: a result slot's live-run settings, declared once as rows over the
// engine's generated schema (generated/engine-schema.ts: each field's type, default, bounds, choices,
// onlyWhen), and everything derived from it. Pure.
//
// A row is one knob the lab exposes: the engine field it sets (its type, default, bounds and doc are
// the schema's, never typed again), an optional lab tightening with its reason (a live run stays
// short, a figure stays legible), its URL parameter and its form control. From the rows come: a
// value's parsing from the text a reader types or a link carries, its check and its message (the
// {min}/{max}/{count}/{range}/{choices} of a page string filled from the bounds), its text in the
// form and in the URL, the engine config of a form's settings, the settings of an engine config,
// the equality of two configs, and the URL parameter group (permalink.ts ParamGroup).
//
// Settings are one shape: the base the form is read against ('full' = the reference, the slot's
// precomputed document or the engine's defaults; or a named preset such as 'small') and the values
// set away from it (an engine field → its value). lib/settings.ts holds the tables; lib/lab.svelte.ts
// the forms' state (that shape plus the text being typed); components/common/SlotSettings.svelte the
// form. The rules across fields (memory, run count, a warm-up longer than the run) are not here: the
// engine answers them (lab.svelte.ts SlotForm.ask, engine-rules.ts).
import type { FieldInfo } from '../generated/engine-schema';
import type { RuleAnswers } from './engine-rules';
import { parseDecimal } from './format';
import type { Param, ParamGroup } from './permalink';
import { tpl } from './text';

export type Config = Record<string, unknown>;

/** How the form shows a field: a text input (a list, or an optional number), a number input (a
 *  list of seeds is a count there: 2 = seeds 0, 1), checkboxes (a list of choices or of numbers
 *  offered), a select (one choice), a toggle (a boolean: a placement spec's key). */
export type Control = 'text' | 'number' | 'checks' | 'select' | 'toggle';

/** The lab's tightening of a field's engine bounds (each strictly inside them: tests/unit/fields.test.ts)
 *  and why, a page string `field.why.<why>` (content/ui-strings.ts). */
export interface Tightening {
  min?: number;
  max?: number;
  /** at most this many entries (a list) */
  items?: number;
  why: string;
}

export interface Row {
  /** the engine field it sets (a key of the slot's schema) */
  field: string;
  /** its URL parameter */
  url: string;
  control: Control;
  /** empty keeps the base's value (shown as the placeholder); the label shows the range */
  optional?: boolean;
  lab?: Tightening;
  /** the figure string of the group of fields it is shown in (e.g. 'ctl.model') */
  group?: string;
  /** a note under the field for the config the form makes (a figure string and its placeholders) */
  hint?: (c: Config) => { key: string; vars: Record<string, string | number> } | null;
}

/** A preset of the form (Figure 4's presets; its button is labelled by the figure string
 *  `preset.<key>`): the values it sets, over the reference ('reference') or over what the form
 *  holds ('form'), and the fields it puts back to the reference's. */
export interface Preset {
  key: string;
  from: 'reference' | 'form';
  set: Config;
  reset?: readonly string[];
}

export interface Table {
  /** the result slot (lib/slots.ts) */
  slot: string;
  /** what the engine's checkConfig is asked: 'probe', 'grid' or the experiment's name */
  kind: string;
  /** the figure that shows the form; the URL group follows that figure's view in links */
  figure: string;
  schema: Readonly<Record<string, FieldInfo>>;
  rows: readonly Row[];
  /** the config of a run before anything is set (the engine's defaults under it) until the slot's
   *  precomputed document has loaded; its config then */
  config: Config;
  /** the other bases a form may be read against (e.g. small: the slot's small setting), each a
   *  partial config over the reference; `url` names the base in links (`url=small`, `url=full`);
   *  `initial` is the base a form opens with */
  bases?: { url: string; values: Readonly<Record<string, Config>>; initial?: string };
  presets?: readonly Preset[];
  /** fields a config computes from others (the probe's depth_batches from its batches) */
  derive?: (c: Config) => Config;
  /** how the form shows the engine's rules across fields (engine-rules.ts) */
  rules?: RuleAnswers;
  /** a choice set in the form: more to set (Figure 4's peak lrs follow the optimizer) */
  follow?: (field: string, from: unknown, to: unknown, c: Config) => Config;
}

/** The settings of a slot's live run: a base and the values set away from it. */
export interface Settings {
  base: string;
  values: Config;
}
export const FULL = 'full';

// ---- a field's bounds -------------------------------------------------------------------------

/** A row's field as the lab checks it: the engine's bounds, tightened by the lab's. */
export interface Bounds {
  info: FieldInfo;
  min: number;
  max: number;
  minExclusive: boolean;
  items: number;
  integer: boolean;
  list: boolean;
  choices: readonly string[];
}

export function boundsOf(t: Table, r: Row): Bounds {
  const info = t.schema[r.field];
  if (!info) throw new Error(`${t.slot}: no engine field "${r.field}"`);
  const list = info.type.endsWith('[]');
  const count = isCount(t, r);
  const items = Math.min(info.maxItems ?? 1, r.lab?.items ?? Infinity);
  return {
    info,
    // a count of seeds: 1 … the most the list holds (or the lab's)
    min: count ? 1 : Math.max(info.min ?? -Infinity, r.lab?.min ?? -Infinity),
    max: count ? Math.min(items, r.lab?.max ?? Infinity) : Math.min(info.max ?? Infinity, r.lab?.max ?? Infinity),
    minExclusive: !count && !!info.minExclusive && (r.lab?.min == null || r.lab.min <= (info.min ?? -Infinity)),
    items,
    integer: count || /^u?int/.test(info.type),
    list,
    choices: [...(info.choices ?? []), ...specChoice(t, r.field)],
  };
}

/** The placement a config's placement_spec defines (the slot's, else the engine's default one:
 *  lr-sensitivity's is the qknorm preset), an extra choice of its `placement(s)` field as in the
 *  engine (config_fields.h spec_choice): [its name], or none. */
function specChoice(t: Table, field: string): string[] {
  const spec = (t.config as Record<string, unknown>).placement_spec ?? t.schema.placement_spec?.default;
  if ((field !== 'placement' && field !== 'placements') || !spec || typeof spec !== 'object') return [];
  const name = (spec as { name?: unknown }).name;
  return [typeof name === 'string' ? name : 'custom'];
}

/** A list of seeds shown as a count (2 = seeds 0, 1). */
const isCount = (t: Table, r: Row) => r.control === 'number' && t.schema[r.field]?.type === 'uint[]';

/** "(0, 10]" / "[1, 24]" */
export const rangeText = (b: Pick<Bounds, 'min' | 'max' | 'minExclusive'>): string => `${b.minExclusive ? '(' : '['}${b.min}, ${b.max}]`;

const within = (b: Bounds, x: number) => (b.minExclusive ? x > b.min : x >= b.min) && x <= b.max && (!b.integer || Number.isInteger(x));

// ---- text → value → text ----------------------------------------------------------------------

/** What is wrong with a value: a page string (content/ui-strings.ts `field.err.*`) and its placeholders. */
export interface FieldError {
  key: string;
  vars: Record<string, string | number>;
  /** the lab's reason, when the value is within the engine's bounds but not the lab's */
  why?: string;
}

type Parsed = { value: unknown } | { error: FieldError };

/** The message of a row's refusal, for its bounds (placeholders filled, the lab's reason when the
 *  lab's bounds are tighter than the engine's). */
export function fieldError(t: Table, r: Row, empty = false): FieldError {
  const b = boundsOf(t, r);
  const vars = { min: b.min, max: b.max, count: b.items, range: rangeText(b), choices: b.choices.join(', ') };
  const why = r.lab?.why;
  if (b.info.type === 'bool') return { key: 'field.err.bool', vars };
  if (b.info.type === 'choice') return { key: 'field.err.choice', vars };
  if (b.info.type === 'choice[]') return { key: empty && r.control === 'checks' ? 'field.err.none' : 'field.err.choices', vars };
  if (isCount(t, r) || (!b.list && b.integer)) return { key: 'field.err.int', vars, why };
  if (!b.list) return { key: 'field.err.number', vars, why };
  return { key: b.integer ? 'field.err.intList' : 'field.err.list', vars, why };
}

/** The message a page shows for it, in the language of `t`. */
export const errorText = (e: FieldError, t: (k: string) => string): string =>
  tpl(t(e.key), e.vars) + (e.why ? tpl(t('field.why'), { why: t(`field.why.${e.why}`) }) : '');

const splitList = (s: string) =>
  s
    .split(/[,，、\s]+/)
    .map((p) => p.trim())
    .filter(Boolean);

/** A value of row `r` checked against its bounds: the value (lists deduplicated and in order), or null. */
export function checkValue(t: Table, r: Row, v: unknown): unknown {
  const b = boundsOf(t, r);
  const type = b.info.type;
  if (type === 'bool') return typeof v === 'boolean' ? v : null;
  if (type === 'choice') return typeof v === 'string' && b.choices.includes(v) ? v : null;
  if (type === 'choice[]') {
    if (!Array.isArray(v) || !v.length || v.length > b.items || v.some((x) => !b.choices.includes(x))) return null;
    return choiceOrder(b.choices, valueIn(t, r.field, t.config)).filter((c) => v.includes(c));
  }
  if (isCount(t, r)) {
    const n = Array.isArray(v) ? v.length : NaN;
    return Array.isArray(v) && within(b, n) && v.every((x, i) => x === i) ? v : null;
  }
  if (!b.list) return typeof v === 'number' && within(b, v) ? v : null;
  if (!Array.isArray(v) || !v.length || v.some((x) => typeof x !== 'number' || !within(b, x))) return null;
  const xs = [...new Set(v as number[])].sort((a, c) => a - c);
  return xs.length <= b.items ? xs : null;
}

/** The order a list of choices is kept in: the reference's own order, then the engine's (so a
 *  reader who ticks the reference's optimizers gets the reference's list). */
const choiceOrder = (choices: readonly string[], ref: unknown): string[] => {
  const first = Array.isArray(ref) ? ref.filter((x): x is string => choices.includes(x)) : [];
  return [...first, ...choices.filter((c) => !first.includes(c))];
};

/** The values a checkbox group offers: a list of choices, each of the engine's (the reference's
 *  order first); a list of numbers, those of the reference, of every base and of the form now. */
export function offered(t: Table, r: Row, ref: Config, now: Config): readonly (string | number)[] {
  const b = boundsOf(t, r);
  if (b.info.type === 'choice[]') return choiceOrder(b.choices, valueIn(t, r.field, t.config));
  const lists = [ref, ...Object.values(t.bases?.values ?? {}), now].map((c) => c[r.field]);
  return [...new Set(lists.flatMap((l) => (Array.isArray(l) ? (l as number[]) : [])))].sort((a, c) => a - c);
}

/** Text (typed, or a URL parameter) → row `r`'s value. Empty text is an error here (a form's
 *  optional field keeps its base's value instead). */
export function parseField(t: Table, r: Row, text: string): Parsed {
  const b = boundsOf(t, r);
  const s = text.trim();
  let v: unknown = null;
  if (b.info.type === 'bool') v = s === 'true' ? true : s === 'false' ? false : null;
  else if (b.info.type === 'choice') v = s;
  else if (b.info.type === 'choice[]') v = splitList(s);
  else if (isCount(t, r)) {
    const n = parseDecimal(s);
    v = n != null && Number.isInteger(n) && n >= 0 && n <= 1000 ? Array.from({ length: n }, (_, i) => i) : null;
  } else if (!b.list) v = parseDecimal(s);
  else {
    const parts = splitList(s);
    const xs = parts.length <= 64 ? parts.map(parseDecimal) : [null];
    v = xs.every((x) => x != null) ? xs : null;
  }
  const value = v == null ? null : checkValue(t, r, v);
  return value == null ? { error: fieldError(t, r, s === '') } : { value };
}

/** A value as the form shows it ("0.001, 0.003"; a count of seeds "2") or as a link writes it (`sep` ','). */
export function formatField(t: Table, r: Row, v: unknown, sep = ', '): string {
  if (v == null) return '';
  if (isCount(t, r)) return String((v as unknown[]).length);
  return Array.isArray(v) ? v.map(String).join(sep) : String(v);
}

// ---- configs ----------------------------------------------------------------------------------

/** A field's value in a config, the schema's default where the config has none. */
export const valueIn = (t: Pick<Table, 'schema'>, field: string, c: Config | null | undefined): unknown => c?.[field] ?? t.schema[field]?.default;

/** Whether field `f` means something in config `c` (its onlyWhen condition holds; an optimizer's settings). */
export function applies(t: Pick<Table, 'schema'>, field: string, c: Config): boolean {
  const when = t.schema[field]?.onlyWhen;
  return !when || Object.entries(when).every(([k, vs]) => vs.includes(String(valueIn(t, k, c))));
}

/** The reference a slot's settings are read against: its precomputed document's config (only the
 *  engine fields of its schema; a document also says what it measured), else the table's config
 *  (`config`), with the engine's defaults under either. */
export function referenceOf(t: Table, docConfig?: Config | null): Config {
  const defaults = Object.fromEntries(Object.entries(t.schema).flatMap(([k, f]) => (f.default == null ? [] : [[k, f.default]])));
  const own = docConfig ?? t.config;
  return { ...defaults, ...Object.fromEntries(Object.entries(own).filter(([k]) => k in t.schema)) };
}

/** The config a base stands for: the reference, or a named base over it. */
export const baseConfig = (t: Table, ref: Config, base: string): Config => ({ ...ref, ...(base === FULL ? {} : t.bases?.values[base]) });

/** The engine config of settings `s` read against reference `ref`, as the engine writes configs: a
 *  field that does not apply (an optimizer setting of another optimizer) left out, so a run of the
 *  reference's settings has the reference's config (result-slots.svelte.ts Slot.reproduces). */
export function configOf(t: Table, ref: Config, s: Settings): Config {
  const c = { ...baseConfig(t, ref, s.base), ...s.values };
  for (const k of Object.keys(c)) if (!applies(t, k, c)) delete c[k];
  return t.derive ? { ...c, ...t.derive(c) } : c;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Whether two configs run the same: every field of the schema that applies, the engine's default
 *  where one has none. */
export const sameConfig = (t: Table, a: Config, b: Config): boolean =>
  Object.keys(t.schema).every((k) => (!applies(t, k, a) && !applies(t, k, b)) || same(valueIn(t, k, a), valueIn(t, k, b)));

/** Settings with only the values that differ from their base and apply. */
export function normalized(t: Table, ref: Config, s: Settings): Settings {
  const base = baseConfig(t, ref, s.base);
  const c = { ...base, ...s.values };
  const values = Object.fromEntries(Object.entries(s.values).filter(([k, v]) => applies(t, k, c) && !same(v, base[k])));
  return { base: s.base, values };
}

/** The settings an engine config was run with: a base that explains the fields no row sets (the
 *  small setting's vocab), and the rows' values away from it. */
export function settingsOf(t: Table, ref: Config, c: Config): Settings {
  // the fields a row sets or the config derives say nothing of the base
  const free = new Set([...t.rows.map((r) => r.field), ...Object.keys(t.derive?.(ref) ?? {})]);
  const initial = initialSettings(t).base;
  const bases = [...new Set([initial, FULL, ...Object.keys(t.bases?.values ?? {})])];
  const explains = (b: string) => {
    const at = baseConfig(t, ref, b);
    return Object.keys(at).every((k) => free.has(k) || !applies(t, k, c) || same(valueIn(t, k, at), valueIn(t, k, c)));
  };
  const values = Object.fromEntries(t.rows.filter((r) => r.field in c || t.schema[r.field]?.default != null).map((r) => [r.field, valueIn(t, r.field, c)]));
  // of the bases that explain it, the one it sets the fewest values away from
  const read = bases.filter(explains).map((base) => normalized(t, ref, { base, values }));
  return (
    read.reduce<Settings | null>((a, b) => (a && Object.keys(a.values).length <= Object.keys(b.values).length ? a : b), null) ??
    normalized(t, ref, { base: FULL, values })
  );
}

// ---- the URL ----------------------------------------------------------------------------------

/** The reason a link's parameter of this table is refused: `field:<slot>:<field>` ('*' for the base). */
export const fieldReason = (t: Table, field: string) => `field:${t.slot}:${field}`;

/**
 * The table's URL parameters as a permalink group (key = the slot): one per row, and one naming the
 * base (`bases.url`). A link's part is { base?, values? }; written are the base when it is not the
 * group's default one and each value set away from it (settings as `normalized` gives them), in
 * row order.
 */
export function paramGroup(t: Table): ParamGroup<Settings> {
  const made = groups.get(t);
  if (made) return made;
  const params: Record<string, Param<Settings>> = {};
  if (t.bases) {
    const names = [FULL, ...Object.keys(t.bases.values)];
    params[t.bases.url] = { parse: (v) => (names.includes(v) ? { base: v } : null), reason: fieldReason(t, '*') };
  }
  for (const r of t.rows)
    params[r.url] = {
      parse: (v) => {
        const p = parseField(t, r, v);
        return 'value' in p ? ({ values: { [r.field]: p.value } } as Partial<Settings>) : null;
      },
      reason: fieldReason(t, r.field),
    };
  const group: ParamGroup<Settings> = {
    key: t.slot,
    params,
    write: (s, d) => [
      ...(t.bases && s.base !== d.base ? [[t.bases.url, s.base] as [string, string]] : []),
      ...t.rows.filter((r) => r.field in s.values).map((r): [string, string] => [r.url, formatField(t, r, s.values[r.field], ',')]),
    ],
  };
  groups.set(t, group);
  return group;
}
const groups = new WeakMap<Table, ParamGroup<Settings>>();

/** The settings a form opens with, and a link's settings are read against. */
export const initialSettings = (t: Table): Settings => ({ base: t.bases?.initial ?? FULL, values: {} });
