// settings.ts — the field table of every result slot (lib/fields.ts says what a table is and what
// is derived from it): the probe's (Figures 2–3; its form is Figure 3's), the grid's (Figure 4), and
// one per experiment slot, built from its declaration in web/src/experiments/<name>.ts (which of
// its engine fields a reader may set, under which URL keys; its small setting). Type, default,
// bounds and doc of each field are the engine's (generated/engine-schema.ts); what is written here
// is only what the lab adds: which fields, the lab's tightenings with their reasons, URL keys,
// controls, presets, and how the form shows the engine's rules. Pure data and lookups.
import { EXPERIMENT_INFO, GRID_FIELDS, OPTIMIZER_INFO, PROBE_FIELDS, type ExperimentName, type FieldInfo } from '../generated/engine-schema';
import { FULL, boundsOf, errorText, fieldError, formatField, rangeText, type Config, type Row, type Table, type Tightening } from './fields';
import { COMPOSER } from './composer';
import { optimizerLabel } from './optimizers';
import { placementLabel } from './placements';
import { fmtLr } from './format';
import { EXPERIMENT_SLOTS, type ExperimentSlot, type SlotName } from './slots';
import { tpl } from './text';
import { show } from './runs/entry';

/** The model sizes a reader may change, within the engine's bounds and these: a run the browser
 *  finishes in minutes, not hours. */
const LAB_MODEL: Readonly<Record<string, Tightening>> = {
  layers: { max: 24, why: 'short' },
  d: { max: 512, why: 'short' },
  d_ff: { max: 2048, why: 'short' },
  batch: { max: 16, why: 'short' },
  seq: { max: 128, why: 'short' },
};
const MODEL = Object.keys(LAB_MODEL);
/** The most steps a live run of the lab takes (a longer one runs for many minutes in a browser). */
const LAB_STEPS = 1000;

/** A row of field `field` under URL key `<url>.<field>`, its control chosen by its type: a select
 *  (a choice), checkboxes (a list of choices), a count (a list of seeds), a text field (a list of
 *  numbers; one number, empty = the base's); a model size gets the lab's bound. */
function row(url: string, schema: Readonly<Record<string, FieldInfo>>, field: string, over: Partial<Row> = {}): Row {
  const type = schema[field]?.type ?? 'number';
  const control = type === 'choice' ? 'select' : type === 'choice[]' ? 'checks' : type === 'uint[]' ? 'number' : 'text';
  return { field, url: `${url}.${field}`, control, optional: !type.endsWith('[]') && type !== 'choice', lab: LAB_MODEL[field], ...over };
}
/** A required number (an input of type number). */
const number = (lab: Tightening): Partial<Row> => ({ control: 'number', optional: false, lab });

/** Figures 2–3's probe (its form in Figure 3; URL fig3.*). Its small setting is the tests' and
 *  phones' fast preset (fig3.model=small); depth_batches follows the batches. */
export const PROBE: Table = {
  slot: 'probe',
  kind: 'probe',
  figure: 'fig3',
  schema: PROBE_FIELDS,
  config: {},
  rows: [
    row('fig3', PROBE_FIELDS, 'seeds', { lab: { max: 5, why: 'short' } }),
    row('fig3', PROBE_FIELDS, 'batches', number({ max: 20, why: 'short' })),
    row('fig3', PROBE_FIELDS, 'depths', { control: 'checks', lab: { max: 48, why: 'short' } }),
    ...MODEL.map((f) => row('fig3', PROBE_FIELDS, f, { group: 'ctl.model' })),
  ],
  bases: { url: 'fig3.model', values: { small: { d: 64, d_ff: 128, vocab: 100, seq: 16, batch: 4, seeds: [0, 1], batches: 2, depths: [2, 4] } } },
  derive: (c) => ({ depth_batches: Math.max(1, Math.round(Number(c.batches) / 2)) }),
  rules: {
    probe_fits_in_memory: { field: 'ctl.model', key: 'err.memory' },
    model_fits_in_memory: { field: 'ctl.model', key: 'err.memory' },
  },
};

/** An optimizer's suggested peak lr (the engine's). */
export const suggestedLr = (o: unknown): number | null => OPTIMIZER_INFO.find((x) => x.name === o)?.suggested_lr ?? null;

/** The peak lrs of optimizer `from`, carried over to `to` as the same multiples of each one's
 *  suggested lr (Adam's 1e-3, 3e-3 → SGD's 0.05, 0.15), so a switch of optimizer does not keep a
 *  rate meant for another; unchanged when either has no suggestion. */
export function lrsForOptimizer(lrs: readonly number[], from: unknown, to: unknown): number[] {
  const a = suggestedLr(from);
  const b = suggestedLr(to);
  return a == null || b == null || a === b ? [...lrs] : lrs.map((x) => +((x / a) * b).toPrecision(6));
}

const grid = (field: string, over?: Partial<Row>) => row('fig4', GRID_FIELDS, field, over);

/** Figure 4's toy warm-up grid (URL fig4.*): the optimizer and its settings (each shown while it
 *  applies), the run's shape, the model's sizes and its architecture. */
export const GRID: Table = {
  slot: 'grid',
  kind: 'grid',
  figure: 'fig4',
  schema: GRID_FIELDS,
  config: {},
  rows: [
    grid('placements'),
    grid('optimizer'),
    ...Object.keys(GRID_FIELDS).flatMap((f) => ((GRID_FIELDS as Record<string, FieldInfo>)[f].onlyWhen?.optimizer ? [grid(f)] : [])),
    grid('lrs', {
      lab: { items: 2, why: 'panels' },
      hint: (c) => (suggestedLr(c.optimizer) == null ? null : { key: 'lrHint', vars: { lr: fmtLr(suggestedLr(c.optimizer)!) } }),
    }),
    grid('warmups', { lab: { items: 3, why: 'dashes' } }),
    grid('warmup_shape'),
    grid('seeds', { lab: { max: 4, why: 'short' } }),
    grid('steps', number({ min: 10, max: LAB_STEPS, why: 'steps' })),
    // what the toy learns: the Markov chain, or the article's own text (its language shown with it);
    // the WebGPU engine refuses text, so such a grid runs on the CPU engine (engine/backend-choice.ts)
    grid('data', { hint: (c) => (c.data === 'text' ? { key: 'dataHint', vars: {} } : null) }),
    grid('text_lang'),
    ...MODEL.map((f) => grid(f, { group: 'ctl.model' })),
    // the architecture: whether Pre-LN needs its final norm, RMSNorm, why the embeddings are scaled
    // by √d and the output tied to them (the attention mask is not one: the toy predicts the next token)
    ...['norm_type', 'final_norm', 'output', 'input_scale'].map((f) => grid(f, { group: 'ctl.arch' })),
  ],
  presets: [
    // The quick look: the cheapest setting in which the article's three toy claims hold on the seed
    // mean over 4 seeds (scripts/quick-look-search.mjs, docs/reproduction.md "Quick look").
    { key: 'quick', from: 'reference', set: { lrs: [0.001], warmups: [0, 120], seeds: [0, 1, 2, 3], steps: 200, layers: 6, batch: 2, seq: 32 } },
    { key: 'full', from: 'reference', set: {} },
    // "DeepNorm works in the same direction as Pre-LN's final LN": DeepNorm next to Post-LN, no warm-up.
    { key: 'deepnorm', from: 'form', set: { placements: ['post', 'deepnorm'], warmups: [0] }, reset: ['lrs', 'optimizer'] },
    // "For Pre-LN warm-up is insurance": Pre-LN at high peak lrs, with and without warm-up.
    { key: 'preHighLr', from: 'form', set: { placements: ['pre'], warmups: [0, 100], lrs: [0.01, 0.03] }, reset: ['optimizer'] },
  ],
  rules: {
    grid_size: { field: 'placements', key: 'err.runs' },
    model_fits_in_memory: { field: 'ctl.model', key: 'err.memory' },
    grid_fits_in_memory: { field: 'ctl.model', key: 'err.gridMemory' },
    warmup_reaches_peak: { field: 'warnings', key: 'warn.warmup' },
  },
  follow: (field, from, to, c) => (field === 'optimizer' && Array.isArray(c.lrs) ? { lrs: lrsForOptimizer(c.lrs as number[], from, to) } : {}),
};

/** An experiment slot's table, from its declaration (experiments/<name>.ts `settings`, `small`). */
function experimentTable(slot: ExperimentSlot): Table {
  const d = EXPERIMENT_SLOTS[slot];
  const schema = EXPERIMENT_INFO[d.experiment as ExperimentName]?.fields ?? {};
  const url = d.settings?.url ?? slot;
  return {
    slot,
    kind: d.experiment,
    // no settings declared: no figure names it (no URL group); its own figure still shows the small setting
    figure: d.settings ? url.split('.')[0] : '',
    schema,
    config: d.config,
    // steps get the lab's bound on a live run's length (the grid's, or the reference's own if longer)
    rows: (d.settings?.fields ?? []).map((f) =>
      row(url, schema, f, f === 'steps' ? { lab: { max: Math.max(LAB_STEPS, Number(d.config.steps ?? schema.steps?.default) || 0), why: 'short' } } : {}),
    ),
    bases: { url: `${url}.setting`, values: { small: d.small }, initial: d.smallFirst ? 'small' : FULL },
  };
}

const tables = new Map<string, Table>([
  ['probe', PROBE],
  ['grid', GRID],
  // the placement composer's spec (lib/composer.ts): not a result slot but a figure's view (fig16.*)
  [COMPOSER.slot, COMPOSER],
]);

/** The field table of a figure's view that is one (the composer's), by its URL group key; else null. */
export const viewTableOf = (key: string): Table | null => (key === COMPOSER.slot ? COMPOSER : null);
/** The table of a slot (an experiment's is built from its declaration the first time). */
export function tableOf(slot: SlotName): Table {
  if (!tables.has(slot)) tables.set(slot, experimentTable(slot as ExperimentSlot));
  return tables.get(slot)!;
}

/** A base's values for the label of its toggle ({depths}, {seeds}, {d}, {layers}, {steps}, {batch},
 *  {seq}, {lrs}, {warmups}). */
export const baseVars = (c: Config): Record<string, string | number> => ({
  depths: Array.isArray(c.depths) ? c.depths.join(', ') : '',
  seeds: Array.isArray(c.seeds) ? c.seeds.length : '',
  d: (c.d as number) ?? '',
  layers: (c.layers as number) ?? '',
  steps: (c.steps as number) ?? '',
  batch: (c.batch as number) ?? '',
  seq: (c.seq as number) ?? '',
  lrs: Array.isArray(c.lrs) ? c.lrs.join(', ') : '',
  warmups: Array.isArray(c.warmups) ? c.warmups.join(', ') : '',
});

/** The message of a link's refused run setting (permalink reason `field:<slot>:<field>`, fields.ts
 *  fieldReason), in the language of `t`; null for any other reason. */
export function reasonText(reason: string, t: (k: string) => string): string | null {
  const m = /^field:([^:]+):(.+)$/.exec(reason);
  if (!m) return null;
  const table = tableOf(m[1] as SlotName);
  if (m[2] === '*') return tpl(t('field.err.choice'), { choices: [FULL, ...Object.keys(table.bases?.values ?? {})].join(', ') });
  const r = table.rows.find((x) => x.field === m[2]);
  return r ? errorText(fieldError(table, r), t) : null;
}

/** How the page names a value of a choice field: a placement or an optimizer by its label, a
 *  warm-up shape by `shape.<value>`, the data and the text's language by `data.<value>` and
 *  `text_lang.<value>`, an architecture choice by `arch.<field>.<value>` (page strings), else the
 *  value itself. */
export function choiceLabel(field: string, v: string, t: (k: string) => string): string {
  if (field === 'placements' || field === 'placement') return placementLabel(v, t);
  if (field === 'optimizer' || field === 'optimizers') return optimizerLabel(v, t);
  const key = field === 'warmup_shape' ? `shape.${v}` : field === 'data' || field === 'text_lang' ? `${field}.${v}` : `arch.${field}.${v}`;
  const s = t(key);
  return s === key ? v : s;
}

/** A field's name in the page's words: the page string `field.<field>`, else the field's name. */
const fieldName = (field: string, t: (k: string) => string): string => {
  const page = t(`field.${field}`);
  return page === `field.${field}` ? field : page;
};

/** A run's settings that differ from the reference (lib/runs/entry.ts changedSettings), in the words
 *  of the slot's form, each by the page string `runs.setting`: the field's name (`field.<field>`)
 *  and its value as the form shows it, a choice by its label and a list of seeds as their count
 *  ("peak lrs: 0.05, 0.15", "optimizer: SGD with momentum", "seeds: 2"), in the form's order; a
 *  field the form does not offer after them, its value as the engine writes it. */
export function settingsText(slot: SlotName, changed: readonly { field: string; value: unknown }[], t: (k: string) => string): string[] {
  const table = tableOf(slot);
  const at = (field: string) => {
    const i = table.rows.findIndex((x) => x.field === field);
    return i < 0 ? table.rows.length : i;
  };
  return [...changed]
    .sort((a, b) => at(a.field) - at(b.field))
    .map(({ field, value }) => {
      const type = table.schema[field]?.type;
      const r = table.rows.find((x) => x.field === field);
      const shown =
        type === 'choice' || type === 'choice[]'
          ? (Array.isArray(value) ? value : [value]).map((v) => choiceLabel(field, String(v), t)).join(', ')
          : r && (Array.isArray(value) || !type?.endsWith('[]')) // (an imported run's list may be anything)
            ? formatField(table, r, value)
            : show(value, ', ');
      return tpl(t('runs.setting'), { name: fieldName(field, t), value: shown });
    });
}

/** A row's label: the figure's own string `ctl.<field>` where it has one, else the page's
 *  `field.<field>`, else the field's name; an optional number's shows its range. */
export function rowLabel(table: Table, r: Row, own: Record<string, string>, t: (k: string) => string): string {
  const name = own[`ctl.${r.field}`] ?? fieldName(r.field, t);
  return r.optional ? `${name} ${rangeText(boundsOf(table, r))}` : name;
}
