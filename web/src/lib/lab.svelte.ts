// lab.svelte.ts — the live-run forms of the result slots and what links do with them. For each slot
// a SlotForm over its field table (lib/settings.ts): the settings it holds (lib/fields.ts Settings:
// a base and the values set away from it), the text being typed, and what follows from them: the
// errors, the engine config, the engine's answer on that config (its rules across fields, asked
// of the engine: checkConfig, placed by engine-rules.ts), the edits (typing, ticking, choosing, a base, a preset). The Lab
// holds one per slot over the live results (result-slots.svelte.ts, which keeps no form state), and
// does for links what a link asks (page/live-page.svelte.ts): fill the forms, show an earlier run or
// start one, and name the settings the address bar writes. One instance, made by the live page (and
// one by the page as the build writes it: page/island-page.ts asBuilt), shared through context
// (getLab(): each figure island sets it, page/FigureIsland.svelte).
import { getContext, setContext } from 'svelte';
import { checkConfig, type ConfigCheck } from '../engine/client';
import { engineProblems } from './engine-rules';
import {
  FULL,
  applies,
  baseConfig,
  checkValue,
  configOf,
  fieldError,
  formatField,
  initialSettings,
  normalized,
  parseField,
  referenceOf,
  sameConfig,
  settingsOf,
  valueIn,
  type Config,
  type FieldError,
  type Preset,
  type Row,
  type Settings,
  type Table,
} from './fields';
import { MAX_VALUE_LENGTH, type LinkIssue } from './permalink';
import { LinkBudget, type Results, type StartOptions } from './result-slots.svelte';
import { settingsDiff } from './runs/entry';
import { tableOf } from './settings';
import { SLOT_NAMES, type SlotName } from './slots';

/** One slot's live-run form. */
export class SlotForm {
  /** the base the values are read against ('full': the reference; or e.g. 'small') */
  base = $state(FULL);
  /** the engine fields set away from the base (a checkbox group's list may be empty: an error) */
  values = $state.raw<Config>({});
  /** what is typed in a field while it differs from its value (text that does not parse stays) */
  text = $state.raw<Record<string, string>>({});
  /** the reader edited it: the engine is asked about it from then on (a visit loads no engine) */
  edited = $state(false);
  /** the engine's answer on the config last asked (SlotSettings asks it); null while it is asked,
   *  or when nothing is */
  answer = $state<ConfigCheck | null>(null);
  #asked = '';

  constructor(
    readonly table: Table,
    /** the slot's precomputed document's config (the reference), null until it has loaded */
    private readonly docConfig: () => Config | null | undefined = () => null,
  ) {
    this.base = initialSettings(table).base;
  }

  /** Ask the engine about `config` (null: nothing; forget the answer). The same config again is
   *  free; an answer to a config asked before another is dropped (it comes from the worker in
   *  milliseconds once the engine is loaded). */
  ask(config: Config | null) {
    const key = config == null ? '' : JSON.stringify(config);
    if (key === this.#asked) return;
    this.#asked = key;
    this.answer = null;
    if (config != null) void checkConfig(this.table.kind, config).then((a) => this.#asked === key && (this.answer = a));
  }

  /** the reference the settings are read against */
  readonly reference = $derived.by(() => referenceOf(this.table, this.docConfig()));
  /** the config of the base */
  readonly baseValues = $derived.by(() => baseConfig(this.table, this.reference, this.base));
  /** each field's value now: set, else the base's */
  readonly now = $derived.by(() => ({ ...this.baseValues, ...this.values }));

  /** each field's error (text that does not parse; a list of checkboxes left empty); a field that
   *  does not apply (another optimizer's setting) has none */
  readonly errors = $derived.by(() => {
    const out: Record<string, FieldError> = {};
    for (const r of this.table.rows) {
      if (!applies(this.table, r.field, this.now)) continue;
      const typed = this.text[r.field];
      if (typed != null) {
        if (r.optional && typed.trim() === '') continue;
        const p = parseField(this.table, r, typed);
        if ('error' in p) out[r.field] = p.error;
      } else if (r.field in this.values && checkValue(this.table, r, this.values[r.field]) == null) {
        const v = this.values[r.field];
        out[r.field] = fieldError(this.table, r, Array.isArray(v) && v.length === 0);
      }
    }
    return out;
  });

  /** the settings held (only values away from the base) */
  readonly settings = $derived.by((): Settings => normalized(this.table, this.reference, { base: this.base, values: this.values }));
  /** the engine config of what the form holds; null while a field is invalid */
  readonly config = $derived.by(() => (Object.keys(this.errors).length ? null : configOf(this.table, this.reference, this.settings)));
  /** what the engine said of it: the rules the form names in its own words, the others in the engine's */
  readonly problems = $derived.by(() => engineProblems(this.answer, this.table.rules ?? {}));
  /** Recompute cannot run it */
  readonly invalid = $derived(this.config == null || this.problems.errors.length > 0);

  /** A field's text: as typed, else its value (an optional field's: empty while it keeps the base's). */
  shown(r: Row): string {
    const typed = this.text[r.field];
    if (typed != null) return typed;
    if (r.optional && !(r.field in this.values)) return '';
    return formatField(this.table, r, this.now[r.field]);
  }
  /** What an optional field left empty stands for: the base's value. */
  placeholder = (r: Row): string => formatField(this.table, r, valueIn(this.table, r.field, this.baseValues));

  /** The reader typed `s` in field `r`. */
  input(r: Row, s: string) {
    this.text = { ...this.text, [r.field]: s };
    const values = { ...this.values };
    const p = parseField(this.table, r, s);
    if (r.optional && s.trim() === '') delete values[r.field];
    else if ('value' in p) values[r.field] = p.value;
    this.values = values;
    this.edited = true;
  }

  /** The reader ticked (or unticked) `v` of a checkbox group. */
  toggle(r: Row, v: string | number, on: boolean) {
    const was = (this.now[r.field] as (string | number)[] | undefined) ?? [];
    const next = on ? [...was, v] : was.filter((x) => x !== v);
    this.set({ [r.field]: checkValue(this.table, r, next) ?? next });
  }

  /** The reader chose `v` in a select: the fields that depend on it go back to the base's (an
   *  optimizer's settings) and the table's `follow` sets what follows (Figure 4's peak lrs). */
  choose(r: Row, v: string) {
    const from = this.now[r.field];
    const follow = this.table.follow?.(r.field, from, v, this.now) ?? {};
    this.set({ [r.field]: v, ...follow }, this.dependents(r.field));
  }

  /** Tick or untick a base (the small setting): the values are read against it anew. */
  setBase(base: string) {
    this.base = base;
    this.values = {};
    this.text = {};
    this.edited = true;
  }

  /** A preset: over the reference or over the form, its resets, then its values. */
  apply(p: Preset) {
    const reset = [...(p.reset ?? []), ...Object.keys(p.set)];
    if (p.from === 'reference') [this.values, this.text] = [{}, {}];
    this.set(p.set, [...reset, ...reset.flatMap((f) => this.dependents(f))]);
  }

  /** Put settings in the form (a link's, or a drawn run's): nothing typed is kept, but `text`, each
   *  field's text as if typed (a link's refused value: the form names what is wrong with it). */
  fill(s: Settings, text: Record<string, string> = {}) {
    this.base = s.base;
    this.values = Object.fromEntries(Object.entries(s.values).filter(([k]) => !(k in text)));
    this.text = { ...text };
  }

  /** Set `values` (their text forgotten), first putting `reset` back to the base's. */
  private set(values: Config, reset: readonly string[] = []) {
    const next = { ...this.values };
    const text = { ...this.text };
    for (const k of [...reset, ...Object.keys(values)]) {
      delete next[k];
      delete text[k];
    }
    this.values = { ...next, ...values };
    this.text = text;
    this.edited = true;
  }

  /** The fields that mean something only for some values of `field` (onlyWhen). */
  private dependents = (field: string) => Object.keys(this.table.schema).filter((k) => this.table.schema[k].onlyWhen?.[field]);
}

/** What a link's run settings ask of the page, once the precomputed results and the stored runs are in:
 *  - 'drawn': the figure already draws a result of those settings;
 *  - 'show': an earlier complete run of them is in the run list: draw it alone (shown again if it
 *    was hidden) instead of computing it again, so reloading a page whose address names a run, or
 *    opening the same link twice, never adds the same run twice;
 *  - 'start': run them (a short run starts, a longer one is offered: LinkBudget). */
export type LinkRun = { kind: 'drawn' } | { kind: 'show'; id: string } | { kind: 'start' };

export class Lab {
  readonly forms: Record<SlotName, SlotForm>;

  constructor(readonly results: Pick<Results, 'slot' | 'runs' | 'recompute'>) {
    this.forms = Object.fromEntries(
      SLOT_NAMES.map((n) => [n, new SlotForm(tableOf(n), () => (results.slot(n).precomputed as { config?: Config } | null)?.config)]),
    ) as Record<SlotName, SlotForm>;
  }

  /** Run what slot `slot`'s form holds; false when it is invalid. */
  start(slot: SlotName, opts: StartOptions = {}): boolean {
    const c = this.forms[slot].config;
    if (!c) return false;
    void this.results.recompute(slot, c, opts);
    return true;
  }

  /** What a link's settings `s` for `slot` ask of the page (LinkRun). */
  linkAction(slot: SlotName, s: Settings): LinkRun {
    const form = this.forms[slot];
    const want = configOf(form.table, form.reference, normalized(form.table, form.reference, s));
    const drawn = (this.results.slot(slot).data as { config?: Config } | null)?.config;
    if (drawn && sameConfig(form.table, want, drawn)) return { kind: 'drawn' };
    const earlier = this.results.runs
      .of(slot)
      .filter((e) => e.status === 'done' && e.doc != null)
      .reverse()
      .find((e) => {
        const had = (e.doc as { config?: Config }).config;
        return had != null && sameConfig(form.table, want, had);
      });
    return earlier ? { kind: 'show', id: earlier.id } : { kind: 'start' };
  }

  /** Apply a link's run settings (`parts`, by slot; lib/permalink.ts LinkState), once the
   *  precomputed results and the stored runs are in: fill each form, and show an earlier run of
   *  them or start one when they differ from what is drawn (a longer run is offered instead:
   *  LinkBudget). A slot the link says nothing of shows what is drawn in its form (a stored run
   *  after a reload), not the reference's settings under someone else's curves.
   *  A slot whose settings the link names with one refused (`issues` of its group: out of bounds,
   *  not a value, given twice) runs nothing: a run of the others with the refused one at its
   *  default is not the run the link asks for. Its form holds what the link set, each refused value
   *  as if typed (so the form says what is wrong with it and Recompute waits for a correction).
   *  The runs the link starts share one LinkBudget, the slots of `first` (the figure the link's
   *  #fragment names) served first, then the others in slot order. */
  applyLink(parts: Record<string, object>, issues: readonly LinkIssue[] = [], first: readonly SlotName[] = []) {
    const budget = new LinkBudget();
    const order = [...SLOT_NAMES.filter((n) => first.includes(n)), ...SLOT_NAMES.filter((n) => !first.includes(n))];
    for (const slot of order) {
      const form = this.forms[slot];
      const asked = parts[slot] as Partial<Settings> | undefined;
      const refused = issues.filter((i) => i.group === slot);
      if (!asked && !refused.length) {
        this.showDrawn(slot);
        continue;
      }
      const s = normalized(form.table, form.reference, { base: asked?.base ?? initialSettings(form.table).base, values: asked?.values ?? {} });
      form.fill(s, refusedText(form.table, refused));
      if (refused.length) continue;
      const act = this.linkAction(slot, s);
      const runs = this.results.runs;
      if (act.kind === 'show') {
        if (runs.get(act.id)?.hidden) runs.setHidden(act.id, false);
        if (runs.isolated[slot] !== act.id) runs.isolate(slot, act.id);
      }
      if (act.kind === 'start') this.start(slot, { budget });
    }
  }

  /** Fill `slot`'s form with the settings of the run it draws, when that is a run of the reader's
   *  (a stored run after a reload): what applyLink does for a slot the link says nothing of, and
   *  the live page once a held slot's stored runs are shown (page/live-page.svelte.ts showRuns). */
  showDrawn(slot: SlotName) {
    const form = this.forms[slot];
    const drawn = this.results.slot(slot);
    const config = drawn.source === 'live' ? (drawn.data as { config?: Config } | null)?.config : null;
    if (config) form.fill(settingsOf(form.table, form.reference, config));
  }

  /** The settings the address bar and Share name for `slot`: the run in progress, else what the
   *  form holds (on screen, run or not: Share says what is not run yet), else what is drawn. */
  linkSettings(slot: SlotName): Settings | null {
    const form = this.forms[slot];
    const s = this.results.slot(slot);
    if (s.pending) return settingsOf(form.table, form.reference, s.pending as Config);
    if (form.config) return form.settings;
    const drawn = (s.data as { config?: Config } | null)?.config;
    return drawn ? settingsOf(form.table, form.reference, drawn) : null;
  }

  /** Every slot's link settings, by slot (permalink parts). */
  linkParts = (): [string, Settings | null][] => SLOT_NAMES.map((n) => [n, this.linkSettings(n)]);

  /** What the form of `slot` holds that the figure does not draw ('steps 20', …), for Share's
   *  note; empty when it draws them, or while a run is under way. */
  notRun(slot: SlotName): string[] {
    const form = this.forms[slot];
    const s = this.results.slot(slot);
    const drawn = (s.data as { config?: Config } | null)?.config;
    if (s.pending || !form.config || !drawn || sameConfig(form.table, form.config, drawn)) return [];
    return settingsDiff(form.config, drawn);
  }
}

/** A link's refused values of a table's fields (not one given twice: which would it be?), by field:
 *  the text its form holds, as if typed; a value longer than a link's values may be (the banner's
 *  "too long") cut there and ended with "…", so a field never holds a megabyte and what it holds
 *  stays refused (a cut list could otherwise read as a valid shorter one). */
const refusedText = (t: Table, issues: readonly LinkIssue[]): Record<string, string> =>
  Object.fromEntries(
    issues.flatMap((i) => {
      const r = t.rows.find((x) => x.url === i.param);
      const v = i.value.trim();
      return r && i.kind === 'invalid' ? [[r.field, v.length > MAX_VALUE_LENGTH ? `${v.slice(0, MAX_VALUE_LENGTH)}…` : v]] : [];
    }),
  );

/** Every slot's link defaults: the settings its form opens with. */
export const linkRunDefaults = (): Record<string, Settings> => Object.fromEntries(SLOT_NAMES.map((n) => [n, initialSettings(tableOf(n))]));

const KEY = Symbol('lnx.lab');
export const setLab = (l: Lab) => setContext(KEY, l);
export const getLab = (): Lab => getContext<Lab>(KEY);
