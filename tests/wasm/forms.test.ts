// forms.test.ts — every slot's settings form (lib/lab.svelte.ts SlotForm over its field table,
// lib/settings.ts) agrees with the real engine (WebAssembly, single-threaded), case by case, at least
// 20 cases per slot (the probe, the grid, each experiment slot): valid settings, a value out of the
// engine's bounds, a value of the wrong type, a value inside the engine's bounds but not the lab's,
// a model too large for memory, the probe (d = 512, d_ff = 2048, batch 2, seq 32, depths to
// 40), a warm-up longer than the run. For each case:
//   - the form refuses a field  ⇔ the engine refuses that value too, or the lab's tightening does
//     (then the engine takes it: the lab is tighter on purpose, and says why);
//   - the form's fields pass    ⇒ what the form shows from the engine's answer (checkConfig, asked as
//     the page asks it) is what a run does: the run starts, or fails with the very message the form
//     shows (in the form's words where the table names the rule: `rules`), and a warning is shown.
// Each case says which of these it is, so a form that took everything would fail here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadEngine } from './load';
import type { LnxModule } from '../../public/wasm/lnx';
import { FULL, boundsOf, formatField, type Config, type Row, type Table } from '../../web/src/lib/fields';
import { SlotForm } from '../../web/src/lib/lab.svelte';
import { tableOf } from '../../web/src/lib/settings';
import { SLOT_NAMES, precomputedPath, type SlotName } from '../../web/src/lib/slots';
import type { ConfigCheck } from '../../web/src/engine/protocol';
import { typedForm, type Typed } from '../unit/typed-form';

/** what the case must give: the form takes it; it refuses a field (`lab`: the lab's bound, which
 *  the engine takes); the engine refuses it by a rule across fields; the engine warns */
type Want = { ok: true } | { field: string; lab?: boolean } | { rule: string } | { warn: string };
interface Case {
  name: string;
  base?: string;
  typed: Typed;
  want: Want;
}

const engine = loadEngine('st');
// each slot's precomputed config, read once (a form asks for it whenever it builds its fields: the
// grid's 295 kB document parsed per call was most of a case's 120 ms)
const configs = new Map<SlotName, Config>();
const doc = (slot: SlotName): Config => {
  if (!configs.has(slot)) configs.set(slot, JSON.parse(readFileSync(new URL(`../../public/${precomputedPath(slot)}`, import.meta.url), 'utf8')).config);
  return structuredClone(configs.get(slot)!);
};
const rowOf = (t: Table, f: string): Row => t.rows.find((r) => r.field === f)!;

/** A form over the slot's table and its precomputed document, with the case typed in (typed-form.ts). */
const formOf = (slot: SlotName, c: Case) => typedForm(tableOf(slot), () => doc(slot), c.typed, c.base);

/** What the engine is handed for a field's text when nothing checks it first: numbers where the
 *  text is one, a count of seeds as that many seeds, a list split at its commas. */
function raw(t: Table, r: Row, v: string | readonly (string | number)[]): unknown {
  if (typeof v !== 'string') return v;
  const num = (s: string) => (s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : s.trim());
  const b = boundsOf(t, r);
  if (b.info.type === 'uint[]' && r.control === 'number') {
    const n = num(v);
    return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 1000 ? Array.from({ length: n }, (_, i) => i) : n;
  }
  return b.list ? v.split(',').map(num) : num(v);
}

/** A run of `config` as the page starts one: the engine's own constructor (a grid: its plan, which
 *  validates as GridRun does without building every run); its error message, or null. */
function runs(m: LnxModule, t: Table, config: Config): string | null {
  const json = JSON.stringify(config);
  try {
    if (t.kind === 'probe') new m.ProbeRun(json).delete();
    else if (t.kind === 'grid') m.gridPlanJson(json);
    else new m.ExperimentRun(t.kind, json).delete();
    return null;
  } catch (e) {
    return String((e as Error).message).replace(/^lnx: /, '');
  }
}

// ---- the cases ----------------------------------------------------------------------------------
const MODEL_HUGE = { layers: '24', d: '512', d_ff: '2048', batch: '16', seq: '128' };
const HAND: Partial<Record<SlotName, Case[]>> = {
  probe: [
    { name: 'the small setting', base: 'small', typed: {}, want: { ok: true } },
    { name: 'one seed, one batch, one depth', typed: { seeds: '1', batches: '1', depths: [6] }, want: { ok: true } },
    { name: 'the lab’s largest model at its depths', typed: { layers: '24', d: '512' }, want: { ok: true } },
    {
      name: 'the issue’s probe: d 512, d_ff 2048, batch 2, seq 32, depths to 40',
      typed: { d: '512', d_ff: '2048', batch: '2', seq: '32', depths: [6, 40], seeds: '1', batches: '1' },
      want: { rule: 'probe_fits_in_memory' },
    },
    { name: 'a model over 1 GiB', typed: MODEL_HUGE, want: { rule: 'probe_fits_in_memory' } },
    { name: 'no depth', typed: { depths: [] }, want: { field: 'depths' } },
    { name: 'more seeds than the lab runs', typed: { seeds: '6' }, want: { field: 'seeds', lab: true } },
    { name: 'more batches than the lab runs', typed: { batches: '21' }, want: { field: 'batches', lab: true } },
  ],
  grid: [
    {
      name: 'the quick look’s model',
      typed: { layers: '6', batch: '2', seq: '32', steps: '200', lrs: '0.001', warmups: '0, 120', seeds: '4' },
      want: { ok: true },
    },
    { name: 'SGD with momentum', typed: { optimizer: 'sgd', momentum: '0.8', lrs: '0.05' }, want: { ok: true } },
    { name: 'RAdam, its betas', typed: { optimizer: 'radam', beta1: '0.8', beta2: '0.99' }, want: { ok: true } },
    { name: 'an optimizer setting out of the engine’s range', typed: { optimizer: 'sgd', momentum: '1.5' }, want: { field: 'momentum' } },
    { name: 'a cosine warm-up, RMSNorm, no final norm', typed: { warmup_shape: 'cosine', norm_type: 'rmsnorm', final_norm: 'off' }, want: { ok: true } },
    {
      name: 'every placement, one warm-up, one seed',
      typed: { placements: ['post', 'pre', 'peri', 'deepnorm', 'admin'], warmups: '0', seeds: '1' },
      want: { ok: true },
    },
    { name: 'a warm-up longer than the run', typed: { warmups: '0, 300', steps: '200' }, want: { warn: 'warmup_reaches_peak' } },
    {
      name: 'more runs than the engine takes (5 × 2 × 3 × 3 = 90)',
      typed: { placements: ['post', 'pre', 'peri', 'deepnorm', 'admin'], warmups: '0, 100, 300', seeds: '3' },
      want: { rule: 'grid_size' },
    },
    {
      name: 'one run’s model over 1 GiB',
      typed: { ...MODEL_HUGE, placements: ['post'], warmups: '0', lrs: '0.001', seeds: '1', steps: '10' },
      want: { rule: 'model_fits_in_memory' },
    },
    {
      name: 'the runs together over the grid’s memory (issue 27)',
      typed: {
        layers: '24',
        d: '512',
        d_ff: '512',
        batch: '8',
        seq: '128',
        steps: '10',
        placements: ['post', 'pre', 'peri', 'deepnorm', 'admin'],
        warmups: '0, 100, 300',
        seeds: '2',
      },
      want: { rule: 'grid_fits_in_memory' },
    },
    { name: 'three peak lrs (the lab draws two panels)', typed: { lrs: '1e-3, 2e-3, 3e-3' }, want: { field: 'lrs', lab: true } },
    { name: 'four warm-ups (the lab has three dashes)', typed: { warmups: '0, 1, 2, 3' }, want: { field: 'warmups', lab: true } },
    { name: 'five seeds', typed: { seeds: '5' }, want: { field: 'seeds', lab: true } },
    { name: 'five steps (no warm-up shows)', typed: { steps: '5' }, want: { field: 'steps', lab: true } },
    { name: '1001 steps', typed: { steps: '1001' }, want: { field: 'steps', lab: true } },
    { name: 'no placement', typed: { placements: [] }, want: { field: 'placements' } },
  ],
  tiedOutput: [{ name: 'a model too large at its deepest', typed: { d: '512', depths: '64' }, want: { rule: 'probe_fits_in_memory' } }],
  stepSize: [{ name: 'a model too large at its deepest', typed: { d: '512', depths: '64' }, want: { rule: 'fits_in_memory' } }],
  outputSensitivity: [{ name: 'a model too large at its deepest', typed: { d: '512', depths: '64' }, want: { rule: 'fits_in_memory' } }],
  outputSensitivitySign: [{ name: 'a model too large at its deepest', typed: { d: '512', depths: '64' }, want: { rule: 'fits_in_memory' } }],
  // the lab's bound on a live run's steps (1000, or the reference's if longer) comes before the engine's rules on steps
  adamFirstStep: [{ name: 'more steps than it records (the lab refuses them first)', typed: { steps: '2000' }, want: { field: 'steps', lab: true } }],
  plateauShare: [{ name: 'more recordings than it keeps (the lab refuses the steps first)', typed: { steps: '100000' }, want: { field: 'steps', lab: true } }],
  sharpness: [
    { name: 'more than 64 runs (3 warm-ups × 8 seeds × 2 placements × 2 optimizers)', typed: { warmups: '0, 10, 20', seeds: '8' }, want: { rule: 'runs' } },
  ],
  // the phase-diagram slots: at most 512 runs (placements × warm-ups × depths × lrs × seeds)
  phaseDiagram: [
    {
      name: 'more than 512 runs (5 placements × 4 warm-ups × 8 seeds over the quick map’s 2 depths × 3 lrs = 960)',
      typed: { placements: ['post', 'pre', 'peri', 'deepnorm', 'admin'], warmups: '0, 10, 20, 30', seeds: '8' },
      want: { rule: 'runs' },
    },
  ],
  deepNorm: [
    {
      name: 'more than 512 runs (5 placements × 4 lrs × 4 warm-ups × 8 seeds = 640)',
      typed: { placements: ['post', 'pre', 'peri', 'deepnorm', 'admin'], lrs: '0.001, 0.002, 0.003, 0.004', warmups: '0, 100, 200, 300', seeds: '8' },
      want: { rule: 'runs' },
    },
  ],
  preWarmup: [
    {
      name: 'more than 512 runs (5 depths × 4 lrs × 4 warm-ups × 8 seeds = 640)',
      typed: { depths: '2, 4, 6, 8, 10', warmups: '0, 50, 100, 200', seeds: '8' },
      want: { rule: 'runs' },
    },
  ],
  lrSensitivity: [
    {
      name: 'more than 128 runs (4 placements × 12 lrs × 8 seeds = 384)',
      typed: { placements: ['pre', 'qknorm', 'post', 'peri'], lrs: '1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.2, 0.3, 0.5, 1, 2', seeds: '8' },
      want: { rule: 'runs' },
    },
    { name: 'Pre-LN alone (the default spec, QK-norm, left unused)', typed: { placements: ['pre'] }, want: { ok: true } },
  ],
  adamFirstStepCf: [{ name: 'the spec’s placement left out of the placements', typed: { placements: ['post'] }, want: { rule: 'placement_spec_is_used' } }],
  // real-text: one grid per language, each refused by the grid's own rules
  realText: [
    {
      name: 'a language’s grid over 64 runs (5 placements × 8 warm-ups × 2 seeds = 80)',
      typed: { placements: ['post', 'pre', 'peri', 'deepnorm', 'admin'], warmups: '0, 10, 20, 30, 40, 50, 60, 70', seeds: '2' },
      want: { rule: 'grid_size' },
    },
    { name: 'both languages together, as one text', typed: { langs: ['both'] }, want: { ok: true } },
  ],
  angularUpdate: [
    { name: 'more than 64 runs (3 placements × 3 warm-ups × 8 seeds = 72)', typed: { warmups: '0, 10, 20', seeds: '8' }, want: { rule: 'runs' } },
    { name: 'the quick look’s model, Pre-LN alone, one seed', typed: { layers: '6', placements: ['pre'], seeds: '1' }, want: { ok: true } },
  ],
  warmupLength: [
    { name: 'its runs together over the grid’s memory', base: FULL, typed: { layers: '24', d: '512' }, want: { rule: 'grid_fits_in_memory' } },
    { name: 'the full setting', base: FULL, typed: {}, want: { ok: true } },
  ],
};

/** For every row: a valid value away from the base's (over the reference and over the small setting),
 *  a value beyond the engine's bounds, one of the wrong type, and one beyond the lab's bound only. */
function generated(slot: SlotName): Case[] {
  const t = tableOf(slot);
  const f = new SlotForm(t, () => doc(slot));
  const out: Case[] = [{ name: 'as it opens', typed: {}, want: { ok: true } }];
  if (t.bases) out.push({ name: 'its small setting', base: Object.keys(t.bases.values)[0], typed: {}, want: { ok: true } });
  for (const r of t.rows) {
    if (b0(t, r).info.type === 'choice') continue; // a select offers only the engine's choices
    const b = b0(t, r);
    const now = f.now[r.field];
    const choices = b.info.type === 'choice[]';
    const count = b.info.type === 'uint[]' && r.control === 'number';
    // a setting that applies only with another (an optimizer's) is typed with it
    const when = Object.fromEntries(Object.entries(b.info.onlyWhen ?? {}).map(([k, vs]) => [k, vs[vs.length - 1]]));
    const at = (v: string | readonly (string | number)[]) => ({ ...when, [r.field]: v });
    // a valid value other than the reference's: an integer one more (one fewer at the top: fewer steps
    // than a warm-up is a warning, not an error), a number halfway to the top, a list without its first
    // entry (its first entry alone when it has one)
    const valid =
      choices || b.list
        ? (now as unknown[]).length > 1
          ? (now as unknown[]).slice(1) // the list without its first entry (a spec's placement stays named)
          : [(now as unknown[])[0]]
        : b.integer
          ? (now as number) + 1 <= b.max
            ? (now as number) + 1
            : (now as number) - 1
          : ((now as number) + b.max) / 2;
    const text = (v: unknown) => (choices ? (v as string[]) : formatField(t, r, v));
    out.push({ name: `${r.field}: ${JSON.stringify(valid)}`, typed: at(text(count ? [0] : valid)), want: { ok: true } });
    if (t.bases) out.push({ name: `small, ${r.field}: ${JSON.stringify(valid)}`, base: 'small', typed: at(text(count ? [0] : valid)), want: { ok: true } });
    if (choices) {
      out.push({ name: `${r.field}: none`, typed: at([]), want: { field: r.field } });
      continue;
    }
    const engineMax = count ? b.info.maxItems! : b.info.max!;
    out.push({ name: `${r.field}: beyond the engine's ${engineMax}`, typed: at(String(engineMax + 1)), want: { field: r.field } });
    if (!count) out.push({ name: `${r.field}: below the engine's ${b.info.min}`, typed: at(String((b.info.min ?? 0) - 1)), want: { field: r.field } });
    out.push({ name: `${r.field}: not a number`, typed: at('abc'), want: { field: r.field } });
    if (r.lab?.max != null && r.lab.max + 1 <= engineMax)
      out.push({ name: `${r.field}: beyond the lab's ${r.lab.max}`, typed: at(String(r.lab.max + 1)), want: { field: r.field, lab: true } });
  }
  return out;
}
const b0 = boundsOf;

const CASES = Object.fromEntries(SLOT_NAMES.map((n) => [n, [...generated(n), ...(HAND[n] ?? [])]])) as Record<SlotName, Case[]>;

/** Forms whose fields cannot reach a rule of their experiment: depth-factors'; and since a live run's
 *  steps have the lab's bound (1000), adam-first-step's and plateau-share's, whose rules are on more
 *  steps than that (steps_recorded, recordings) or on a model needing a d_ff their forms do not offer
 *  (model_fits_in_memory: layers 24, d 512 fits in 1 GiB at their d_ff). */
const NO_RULE_REACHED = ['depthFactors', 'adamFirstStep', 'plateauShare'];

describe.each(SLOT_NAMES.map((n) => [n]))('the %s form agrees with the engine', (slot) => {
  it('has at least 20 cases: valid, refused at a field, refused by a rule (where its fields can reach one)', () => {
    const kinds = new Set(CASES[slot].map((c) => Object.keys(c.want)[0]));
    expect(CASES[slot].length).toBeGreaterThanOrEqual(20);
    expect([...kinds]).toEqual(expect.arrayContaining(NO_RULE_REACHED.includes(slot) ? ['ok', 'field'] : ['ok', 'field', 'rule']));
  });
  it.each(CASES[slot].map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const m = await engine;
    const t = tableOf(slot);
    const form = formOf(slot, c);
    const fields = Object.keys(form.errors);
    if ('field' in c.want) {
      // the form refuses the field; the engine refuses the same value, unless the bound is the lab's
      expect(fields).toEqual([c.want.field]);
      expect(form.invalid).toBe(true);
      const r = rowOf(t, c.want.field);
      const config = { ...form.reference, ...form.baseValues, [r.field]: raw(t, r, c.typed[r.field]) };
      const check = JSON.parse(m.checkConfigJson(t.kind, JSON.stringify(config))) as ConfigCheck;
      const err = runs(m, t, config);
      // the lab's bound: the engine takes the value itself (a rule across fields may still refuse the whole config)
      const byField = check.ok === false && !check.rule;
      expect(byField, `the engine on ${JSON.stringify(c.typed)}: ${check.ok === false ? check.message : 'ok'}`).toBe(!c.want.lab);
      if (!c.want.lab) expect(err, 'the run fails as the engine said').toBe(check.ok === false ? check.message : null);
      if (c.want.lab) expect(form.errors[r.field].why, 'a lab bound says why').toBe(r.lab?.why);
      return;
    }
    expect(form.errors, 'the fields pass').toEqual({});
    const config = form.config!;
    // what the form shows: the engine's answer, as the page asks it (worker.ts: checkConfigJson)
    const answer = JSON.parse(m.checkConfigJson(t.kind, JSON.stringify(config))) as ConfigCheck;
    form.answer = answer;
    const err = runs(m, t, config);
    if ('rule' in c.want) {
      expect(answer).toMatchObject({ ok: false, rule: c.want.rule });
      expect(err, 'the run fails as the form says').toBe(answer.ok === false ? answer.message : null);
      expect(form.invalid).toBe(true);
      const shown = form.problems.errors[0];
      const named = t.rules?.[c.want.rule];
      expect(shown).toEqual(named ? { field: named.field, key: named.key, message: err } : { field: 'engine', key: null, message: err });
      return;
    }
    expect(err, 'the run starts').toBeNull();
    expect(answer.ok).toBe(true);
    expect(form.invalid).toBe(false);
    const warned = form.problems.warnings.map((w) => w.key ?? w.message);
    if ('warn' in c.want) expect(warned).toEqual([t.rules![c.want.warn].key]);
    else expect(warned).toEqual([]);
  });
});
