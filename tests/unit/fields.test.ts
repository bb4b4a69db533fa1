// fields.test.ts — the field tables (lib/settings.ts) and what lib/fields.ts derives from them, and
// the forms over them (lib/lab.svelte.ts SlotForm), table-driven: what a reader types becomes the
// value or the message it should, the engine config of a form is the reference's with what was
// set, the settings of a config read back, presets and bases give valid settings. What the engine
// itself answers of a form's config (memory, run count, a warm-up longer than the run) is
// tests/wasm/forms.test.ts, against the real engine.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GRID_FIELDS } from '../../web/src/generated/engine-schema';
import {
  FULL,
  boundsOf,
  checkValue,
  configOf,
  fieldError,
  offered,
  parseField,
  referenceOf,
  sameConfig,
  settingsOf,
  type Config,
  type Row,
  type Table,
} from '../../web/src/lib/fields';
import { parseList } from '../../web/src/lib/format';
import { SlotForm } from '../../web/src/lib/lab.svelte';
import { GRID, PROBE, tableOf } from '../../web/src/lib/settings';
import { SLOT_NAMES, precomputedPath, type SlotName } from '../../web/src/lib/slots';
import { settingsDiff } from '../../web/src/lib/runs/entry';
import { grid, probe } from './fixtures';
import { typedForm, type Typed } from './typed-form';

const rowOf = (t: Table, field: string): Row => t.rows.find((r) => r.field === field)!;
/** A form over table `t` and the reference document config `doc`, with `typed` typed (typed-form.ts). */
const formWith = (t: Table, typed: Typed = {}, doc: Config | null = null, base?: string) => typedForm(t, () => doc, typed, base);
const P = probe().config as unknown as Config;
const G = grid().config as unknown as Config;

describe('every table', () => {
  it.each(SLOT_NAMES.map((n) => [n]))('%s: its rows are engine fields, its URL keys its figure’s, its tightenings inside the engine’s bounds', (n) => {
    const t = tableOf(n);
    expect(new Set(t.rows.map((r) => r.url)).size).toBe(t.rows.length);
    for (const r of t.rows) {
      const info = t.schema[r.field];
      expect(info, r.field).toBeDefined();
      expect(r.url.startsWith(`${t.figure}.`), r.url).toBe(true);
      // a tightening is the lab's own: strictly inside the engine's bound, never a copy of it
      if (r.lab?.max != null) expect(r.lab.max, `${r.field} max`).toBeLessThan(info.type === 'uint[]' ? info.maxItems! : info.max!);
      if (r.lab?.min != null) expect(r.lab.min, `${r.field} min`).toBeGreaterThan(info.min!);
      if (r.lab?.items != null) expect(r.lab.items, `${r.field} items`).toBeLessThan(info.maxItems!);
    }
  });
  it.each(SLOT_NAMES.map((n) => [n]))(
    '%s: its bases and presets set engine fields, each away from the reference (no copy of a default), and pass the rows’ checks',
    (n) => {
      const t = tableOf(n);
      const ref = referenceOf(t);
      const sets = [...Object.values(t.bases?.values ?? {}), ...(t.presets ?? []).map((p) => p.set)];
      for (const set of sets)
        for (const [k, v] of Object.entries(set)) {
          expect(k in t.schema, k).toBe(true);
          expect(JSON.stringify(v), `${n}.${k} restates the reference`).not.toBe(JSON.stringify(ref[k]));
          const r = t.rows.find((x) => x.field === k);
          if (r) expect(checkValue(t, r, v), `${n}.${k}`).toEqual(v);
        }
    },
  );
  it.each(SLOT_NAMES.filter((n) => !n.startsWith('fake')).map((n) => [n]))(
    '%s: a run of the reference’s settings asks for the precomputed document’s config, key for key (so it runs the arithmetic that reproduces it)',
    (n) => {
      const doc = JSON.parse(readFileSync(new URL(`../../public/${precomputedPath(n)}`, import.meta.url), 'utf8')).config as Config;
      const f = new SlotForm(tableOf(n), () => doc);
      f.setBase(FULL);
      expect(settingsDiff(f.config!, doc)).toEqual([]);
      expect(settingsDiff(formWith(GRID, { optimizer: 'sgd' }, G).config!, G)).toEqual(['lrs 0.05,0.15', 'optimizer sgd']);
    },
  );
  it.each(SLOT_NAMES.map((n) => [n]))('%s: the reference reads back as no settings, and a form opens on it', (n) => {
    const t = tableOf(n);
    const ref = referenceOf(t);
    expect(settingsOf(t, ref, configOf(t, ref, { base: FULL, values: {} }))).toEqual({ base: FULL, values: {} });
    const f = new SlotForm(t);
    expect(f.errors).toEqual({});
    expect(f.config).not.toBeNull();
  });
});

describe('the probe’s form (Figures 2–3)', () => {
  it.each<[Record<string, string | number[]>, string[]]>([
    [{ seeds: '5', batches: '20', depths: [6] }, []],
    [{ seeds: '0' }, ['seeds']],
    [{ seeds: '6', batches: '21' }, ['batches', 'seeds']],
    [{ seeds: '2.5', depths: [] }, ['depths', 'seeds']],
    [{ seeds: 'NaN' }, ['seeds']],
    [{ seeds: '' }, ['seeds']],
    // the model's sizes: each within the lab's bounds (the deepest model's memory is the engine's
    // rule: tests/wasm/forms.test.ts)
    [{ d: '1' }, ['d']],
    [{ d_ff: 'NaN', seq: '4.5', layers: '0' }, ['d_ff', 'layers', 'seq']],
    [{ batch: '17' }, ['batch']],
    [{ depths: [48], d: '512', d_ff: '2048' }, []],
    [{ d: '' }, []],
  ])('%j → errors in %j', (typed, fields) => {
    const f = formWith(PROBE, typed);
    expect(Object.keys(f.errors).sort()).toEqual(fields);
    expect(f.config === null).toBe(fields.length > 0);
  });
  it('the small setting is valid and small; the depth_batches follow the batches', () => {
    const f = formWith(PROBE, {}, null, 'small');
    expect(f.errors).toEqual({});
    expect(f.config).toMatchObject({ d: 64, d_ff: 128, vocab: 100, seeds: [0, 1], batches: 2, depth_batches: 1, depths: [2, 4] });
  });
  it('otherwise keeps the model of the precomputed config', () => {
    const f = formWith(PROBE, { seeds: '3', batches: '10', depths: [8, 6, 8] }, P);
    expect(f.config).toMatchObject({ d: 64, layers: 3, seeds: [0, 1, 2], batches: 10, depth_batches: 5, depths: [6, 8] });
  });
  it("the settings' model sizes replace the base model's (the precomputed config's, or the small one)", () => {
    expect(formWith(PROBE, { seeds: '1', batches: '2', depths: [6], d: '32', seq: '8' }, P).config).toMatchObject({ d: 32, seq: 8, layers: 3 });
    expect(formWith(PROBE, { layers: '2', batch: '1' }, null, 'small').config).toMatchObject({ d: 64, vocab: 100, layers: 2, batch: 1 });
    expect(formWith(PROBE, { seeds: '1', batches: '2', depths: [6] }).config).toMatchObject({ layers: 6, d: 512, d_ff: 1024, vocab: 1000, seq: 32, batch: 8 });
  });
  it('offers as depths those of the reference, the small setting and the form', () => {
    const f = formWith(PROBE, { depths: [6, 40] });
    expect(f.config?.depths).toEqual([6, 40]);
    expect(offered(PROBE, rowOf(PROBE, 'depths'), f.reference, f.now)).toEqual([2, 4, 6, 8, 10, 12, 14, 40]);
    expect(offered(GRID, rowOf(GRID, 'placements'), referenceOf(GRID), {})).toEqual(GRID_FIELDS.placements.choices);
  });
  it('a field being typed keeps its text; an optional one left empty shows the base’s value as its placeholder', () => {
    const f = formWith(PROBE, { d: '12x' });
    expect(f.shown(rowOf(PROBE, 'd'))).toBe('12x');
    expect(f.placeholder(rowOf(PROBE, 'd'))).toBe('512');
    f.setBase('small');
    expect(f.shown(rowOf(PROBE, 'd'))).toBe('');
    expect(f.placeholder(rowOf(PROBE, 'd'))).toBe('64');
    expect(f.shown(rowOf(PROBE, 'seeds'))).toBe('2');
  });
});

describe('the grid’s form (Figure 4)', () => {
  it('valid settings → the reference’s config with them', () => {
    const f = formWith(GRID, { lrs: '1e-3, 3e-3', warmups: '300, 0', seeds: '2', steps: '500' }, G);
    expect(f.errors).toEqual({});
    const ref = referenceOf(GRID, G);
    expect(ref.momentum).toBe(GRID_FIELDS.momentum.default);
    // a field that does not apply is left out: SGD's momentum from an Adam run, the text's settings from the chain's
    const onlyWhen = (k: string) => (GRID_FIELDS as Record<string, { onlyWhen?: Record<string, readonly string[]> }>)[k]?.onlyWhen ?? {};
    const adam = Object.fromEntries(Object.entries(ref).filter(([k]) => Object.entries(onlyWhen(k)).every(([key, vs]) => vs.includes(ref[key] as string))));
    expect(Object.keys(ref).filter((k) => !(k in adam))).toEqual(['momentum', 'text_lang', 'eval_every']);
    expect(f.config).toEqual({ ...adam, lrs: [0.001, 0.003], warmups: [0, 300], seeds: [0, 1], steps: 500 });
    expect(f.settings.values).toEqual({ warmups: [0, 300], steps: 500 });
  });
  it('shows the drawn grid: each field its text', () => {
    const f = formWith(GRID, {}, G);
    expect(['placements', 'lrs', 'warmups', 'seeds', 'steps', 'optimizer', 'layers'].map((k) => f.shown(rowOf(GRID, k)))).toEqual([
      'post, pre',
      '0.001, 0.003',
      '0, 100',
      '2',
      '200',
      'adam',
      '',
    ]);
    expect(formWith(GRID).shown(rowOf(GRID, 'steps'))).toBe(String(GRID_FIELDS.steps.default));
  });
  it("the warm-up shape: one of the engine's, the default when absent, round-tripped through a config", () => {
    expect(boundsOf(GRID, rowOf(GRID, 'warmup_shape')).choices).toEqual(GRID_FIELDS.warmup_shape.choices);
    const f = formWith(GRID, { warmup_shape: 'cosine' }, G);
    expect(f.config).toMatchObject({ warmup_shape: 'cosine' });
    expect(parseField(GRID, rowOf(GRID, 'warmup_shape'), 'exponential')).toEqual({ error: fieldError(GRID, rowOf(GRID, 'warmup_shape')) });
    const ref = referenceOf(GRID, G);
    expect(settingsOf(GRID, ref, f.config!).values).toEqual({ warmup_shape: 'cosine' });
    // a config made before the shapes existed reads as linear, and is the same grid as one that says so
    const old = { ...G };
    delete old.warmup_shape;
    expect(settingsOf(GRID, ref, old)).toEqual({ base: FULL, values: {} });
    expect(sameConfig(GRID, old, { ...old, warmup_shape: 'linear' })).toBe(true);
    expect(sameConfig(GRID, old, { ...old, warmup_shape: 'cosine' })).toBe(false);
  });
  it.each<[Record<string, string>, Config]>([
    [{}, {}],
    [{ final_norm: 'off' }, { final_norm: 'off' }],
    [
      { norm_type: 'rmsnorm', output: 'untied', input_scale: 'none' },
      { norm_type: 'rmsnorm', output: 'untied', input_scale: 'none' },
    ],
  ])('architecture choices %j', (typed, set) => {
    const f = formWith(GRID, typed, G);
    expect(f.settings.values).toEqual(set);
    for (const r of GRID.rows.filter((x) => x.group === 'ctl.arch')) expect(f.config?.[r.field]).toBe(set[r.field] ?? GRID_FIELDS[r.field as 'output'].default);
  });
  it.each(['final_norm=sometimes', 'norm_type=batchnorm'])('a choice the engine does not have (%s) is refused', (kv) => {
    const [k, v] = kv.split('=');
    expect('error' in parseField(GRID, rowOf(GRID, k), v)).toBe(true);
  });
  it("the architecture's away from the reference round-trip; a config made before a choice existed reads as the engine's default", () => {
    const ref = referenceOf(GRID, G);
    expect(settingsOf(GRID, ref, { ...G, final_norm: 'off', output: 'tied' }).values).toEqual({ final_norm: 'off' });
    const old = { ...G };
    for (const r of GRID.rows.filter((x) => x.group === 'ctl.arch')) delete old[r.field];
    expect(settingsOf(GRID, ref, old).values).toEqual({});
  });
  it('an optimizer and its settings: only its own, empty = the reference’s; another choice resets them and carries the lrs', () => {
    const f = formWith(GRID, { optimizer: 'sgd', momentum: '0.5' }, G);
    expect(f.config).toMatchObject({ optimizer: 'sgd', momentum: 0.5, lrs: [0.05, 0.15] });
    f.input(rowOf(GRID, 'beta1'), '0.3'); // Adam's, not shown with SGD: ignored, and not in an SGD run's config
    expect(f.config).not.toHaveProperty('beta1');
    expect(f.settings.values).toEqual({ optimizer: 'sgd', momentum: 0.5, lrs: [0.05, 0.15] });
    f.input(rowOf(GRID, 'momentum'), '');
    expect(f.config?.momentum).toBe(GRID_FIELDS.momentum.default);
    f.input(rowOf(GRID, 'momentum'), '1');
    expect(Object.keys(f.errors)).toEqual(['momentum']);
    f.choose(rowOf(GRID, 'optimizer'), 'adam');
    expect(f.errors).toEqual({});
    expect(f.settings.values).toEqual({});
    expect('error' in parseField(GRID, rowOf(GRID, 'optimizer'), 'lion')).toBe(true);
  });
  it("the value ranges are the engine's: lr in (0, 10], a warm-up any length the engine takes", () => {
    const lrs = rowOf(GRID, 'lrs');
    const ws = rowOf(GRID, 'warmups');
    expect(parseField(GRID, lrs, '1e-7')).toEqual({ value: [1e-7] });
    expect('error' in parseField(GRID, lrs, '0')).toBe(true);
    expect(parseField(GRID, lrs, String(GRID_FIELDS.lrs.max))).toEqual({ value: [GRID_FIELDS.lrs.max] });
    expect(parseField(GRID, ws, String(GRID_FIELDS.warmups.max))).toEqual({ value: [GRID_FIELDS.warmups.max] });
    expect('error' in parseField(GRID, ws, String(GRID_FIELDS.warmups.max! + 1))).toBe(true);
    expect(fieldError(GRID, lrs).vars).toMatchObject({ count: 2, range: '(0, 10]' });
  });
  it.each<[Record<string, string | string[]>, string[]]>([
    [{ lrs: '' }, ['lrs']],
    [{ lrs: 'abc' }, ['lrs']],
    [{ lrs: '20' }, ['lrs']],
    [{ lrs: '0x10' }, ['lrs']],
    [{ lrs: 'Infinity' }, ['lrs']],
    [{ steps: '1e2' }, []],
    [{ seeds: ' 2 ' }, []],
    [{ lrs: '1e-3, 2e-3, 3e-3' }, ['lrs']],
    [{ warmups: '-1' }, ['warmups']],
    [{ warmups: '1.5' }, ['warmups']],
    [{ warmups: '0,1,2,3' }, ['warmups']],
    [{ warmups: '2000' }, []], // longer than the run: allowed (the engine warns: tests/wasm/forms.test.ts)
    [{ seeds: '0' }, ['seeds']],
    [{ seeds: '5' }, ['seeds']],
    [{ seeds: '' }, ['seeds']],
    [{ steps: '9' }, ['steps']],
    [{ steps: '0' }, ['steps']],
    [{ steps: '1001' }, ['steps']],
    [{ steps: '20.5' }, ['steps']],
    [{ steps: '10', seeds: '1', lrs: '0.001' }, []],
    [{ placements: [] }, ['placements']],
    [{ placements: ['admin', 'post'] }, []],
    [{ placements: ['post', 'pre', 'peri', 'deepnorm', 'admin'], warmups: '0, 100, 300', seeds: '2' }, []], // 5 × 2 × 3 × 2 = 60
    [{ placements: ['post', 'pre', 'peri', 'deepnorm', 'admin'], warmups: '0, 100, 300', seeds: '3' }, []], // 90 > 64 runs: the engine's rule
    // the model's sizes
    [{ layers: '4' }, []],
    [{ layers: '0' }, ['layers']],
    [{ layers: '25' }, ['layers']],
    [{ d: '64.5' }, ['d']],
    [{ batch: 'x' }, ['batch']],
    [{ seq: '' }, []],
    [{ layers: '24', d: '512', d_ff: '2048', batch: '16', seq: '128' }, []], // over 1 GiB: the engine's rule
  ])('%j → errors in %j', (typed, fields) => {
    const f = formWith(GRID, typed, G);
    expect(Object.keys(f.errors).sort()).toEqual(fields);
    expect(f.config === null).toBe(fields.length > 0);
  });
  it('placements come back in the registry order, deduplicated; a model size’s message names its bounds and the lab’s reason', () => {
    expect(parseField(GRID, rowOf(GRID, 'placements'), 'admin,post,admin')).toEqual({ value: ['post', 'admin'] });
    expect(fieldError(GRID, rowOf(GRID, 'layers'))).toEqual(expect.objectContaining({ key: 'field.err.int', why: 'short' }));
    expect(fieldError(GRID, rowOf(GRID, 'layers')).vars).toMatchObject({ min: 1, max: 24 });
    expect(formWith(GRID, {}, G).config).toMatchObject({ layers: G.layers, d: G.d });
  });
  it.each([
    ['1e-3, 3e-3', [0.001, 0.003]],
    ['0.001，0.003', [0.001, 0.003]],
    ['0 300', [0, 300]],
    ['', null],
    ['1, x', null],
  ])('parseList(%j)', (s, want) => expect(parseList(s)).toEqual(want));
});

describe('the grid’s presets', () => {
  it("every preset gives a valid grid within the lab's bounds; the form's other fields are kept or reset as it says", () => {
    for (const p of GRID.presets!) {
      const f = formWith(GRID, { optimizer: 'sgd', layers: '4' }, G);
      f.input(rowOf(GRID, 'd'), '99999'); // typed, refused: a preset from the reference forgets it
      if (p.from === 'form') f.input(rowOf(GRID, 'd'), '');
      f.apply(p);
      expect(f.errors, p.key).toEqual({});
      expect(f.config, p.key).toMatchObject(p.set);
      if (p.from === 'reference') expect(f.config?.layers, p.key).toBe(p.set.layers ?? G.layers);
      else expect(f.config?.layers, p.key).toBe(4);
      if (p.reset?.includes('optimizer') || p.from === 'reference') expect(f.config?.optimizer, p.key).toBe('adam');
    }
  });
  it('the quick look is the configuration docs/reproduction.md chose', () => {
    const q = GRID.presets!.find((p) => p.key === 'quick')!;
    const search = JSON.parse(readFileSync(new URL('../../docs/data/quick-look-search.json', import.meta.url), 'utf8'));
    const c = search.chosen.config;
    const f = formWith(GRID, {}, G);
    f.apply(q);
    expect(f.config).toMatchObject({ layers: c.layers, d: c.d, d_ff: c.d_ff, batch: c.batch, seq: c.seq, vocab: c.vocab, steps: c.steps });
    expect([f.config?.lrs, f.config?.warmups, f.config?.seeds]).toEqual([[search.lr], [0, c.warmup], search.seeds]);
  });
});

describe('an experiment’s form', () => {
  it('the small setting is a base: ticked, its values; unticked, the reference; the URL names it', () => {
    const t = tableOf('warmupLength');
    const f = new SlotForm(t);
    expect(f.base).toBe('small'); // smallFirst
    expect(f.config).toMatchObject({ warmups: [0, 100], seeds: [0], lr_factors: [1], steps: 400 });
    f.setBase(FULL);
    expect(f.config).toMatchObject({ warmups: [0, 25, 50, 100, 300], seeds: [0, 1], lr_factors: [1, 3] });
    expect(f.settings).toEqual({ base: FULL, values: {} });
  });
  it('its fields: a list of choices in the reference’s order, seeds as a count', () => {
    const t = tableOf('warmupLength');
    const f = formWith(t, { optimizers: ['sgd', 'adam'], seeds: '3' }, null, FULL);
    expect(f.config).toMatchObject({ optimizers: ['adam', 'sgd'], seeds: [0, 1, 2] });
    expect(Object.keys(formWith(t, { seeds: '0' }).errors)).toEqual(['seeds']);
  });
  it('the sign step’s slot keeps its perturbation kind under its small setting', () => {
    expect(new SlotForm(tableOf('outputSensitivitySign'), () => null).config?.perturbation_kind).toBe('sign_gradient');
    const f = new SlotForm(tableOf('outputSensitivitySign'));
    f.setBase('small');
    expect(f.config).toMatchObject({ perturbation_kind: 'sign_gradient', depths: [8, 16], seeds: [0] });
  });
});

describe('a placement spec’s name is a choice of placements (as the engine’s spec_choice)', () => {
  const placementsRow = (slot: SlotName) => {
    const t = tableOf(slot);
    return { t, r: t.rows.find((x) => x.field === 'placements')! };
  };
  it('the counterfactuals’ table, whose config carries the rezero preset, offers rezero; Figure C’s does not', () => {
    const cf = placementsRow('adamFirstStepCf');
    expect(boundsOf(cf.t, cf.r).choices).toContain('rezero');
    expect(checkValue(cf.t, cf.r, ['pre', 'rezero'])).toEqual(['pre', 'rezero']);
    const c = placementsRow('adamFirstStep');
    expect(boundsOf(c.t, c.r).choices).not.toContain('rezero');
    expect(checkValue(c.t, c.r, ['pre', 'rezero'])).toBeNull();
  });
});
