// registry.test.ts — the contract every figure of web/src/figures/registry.ts keeps, checked for each
// figure (a new one is tested the day it is added): its id, its URL parameters (named after it,
// unique, parse what they write, listed in docs/sharing.md), the run settings of the slots it shows
// the form of (keyed by the slot, lib/settings.ts), and its downloads (a table and JSON even with no
// result yet); and what a link's run settings ask of the page (lib/lab.svelte.ts linkAction).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIGURES, FIGURE_IDS, LINKS, experimentSlotsOf, figureNumber, linkDefaults } from '../../web/src/figures/registry';
import { paramGroup, settingsOf, type Settings } from '../../web/src/lib/fields';
import { Lab } from '../../web/src/lib/lab.svelte';
import { tableOf } from '../../web/src/lib/settings';
import { parseLink, serializeView, type ViewState } from '../../web/src/lib/permalink';
import {
  adamFirstStep,
  angularUpdate,
  adamFirstStepCf,
  depthFactors,
  grid,
  lrSensitivity,
  outputSensitivity,
  phaseDiagram,
  plateauShare,
  probe,
  realText,
  runEntry,
  sharpness,
  stepSize,
  tiedOutput,
  warmupLength,
} from './fixtures';
import { LINK_BUDGET_MS, LinkBudget, Results, SLOT_NAMES, type SlotName, type StartOptions } from '../../web/src/lib/result-slots.svelte';
import { LiveRuns } from '../../web/src/lib/runs/live-runs.svelte';
import { memoryStore } from '../../web/src/lib/runs/store';
import { heldSlots, linkGroups, slotsOf } from '../../web/src/page/island-page';

const docFor: Record<SlotName, unknown> = {
  probe: probe(),
  grid: grid(),
  outputSensitivity: outputSensitivity(),
  outputSensitivitySign: outputSensitivity('sign_gradient'),
  tiedOutput: tiedOutput(),
  adamFirstStep: adamFirstStep(),
  adamFirstStepCf: adamFirstStepCf(),
  warmupLength: warmupLength(),
  plateauShare: plateauShare(),
  stepSize: stepSize(),
  depthFactors: depthFactors(),
  sharpness: sharpness(),
  phaseDiagram: phaseDiagram(['post', 'pre', 'deepnorm', 'peri']),
  deepNorm: phaseDiagram(),
  preWarmup: phaseDiagram(['pre'], { early_exit: 'off' }),
  lrSensitivity: lrSensitivity(),
  realText: realText(),
  angularUpdate: angularUpdate(),
};
const names = (g: { params: Record<string, unknown> }) => Object.keys(g.params);

describe('the registry', () => {
  it('lists each figure once, by an id figN (ids are handed out per branch, so they need not be consecutive)', () => {
    expect(new Set(FIGURE_IDS).size).toBe(FIGURES.length);
    for (const id of FIGURE_IDS) expect(id).toMatch(/^fig[1-9]\d*$/);
  });
  it('numbers the article’s figures 1, 2, … and letters the page’s tests A, B, …, each in page order', () => {
    expect(FIGURES.map((f) => `${f.id}:${figureNumber(f.id)}`)).toEqual([
      'fig1:1',
      'fig2:2',
      'fig3:3',
      'fig6:A',
      'fig11:B',
      'fig7:C',
      'fig17:D',
      'fig10:E',
      'fig5:F',
      'fig12:G',
      'fig4:4',
      'fig8:H',
      'fig9:I',
      'fig19:J',
      'fig13:K',
      'fig20:L',
      'fig14:M',
      'fig18:N',
      'fig15:O',
      'fig16:P',
    ]);
    // the article's figures keep the numbers the source article gives them
    for (const f of FIGURES.filter((g) => g.series === 'article')) expect(figureNumber(f.id)).toBe(f.id.slice(3));
    expect(figureNumber('fig99')).toBeUndefined();
    expect(figureNumber('x')).toBeUndefined();
  });
  it('the end-to-end run tries every test of the page that draws a slot (tests/e2e/harness.mjs TEST_FIGS)', async () => {
    // the harness reads the figures' sources (it runs without the page's TypeScript): a figure made
    // another way than it looks for would silently drop out of the end-to-end loop
    const { TEST_FIGS } = await import('../e2e/harness.mjs');
    expect([...TEST_FIGS].sort()).toEqual(
      FIGURES.filter((f) => f.series === 'test' && f.slot != null)
        .map((f) => f.id)
        .sort(),
    );
  });
  it('docs/experiments.md labels the page’s tests as the page does', () => {
    const md = readFileSync(new URL('../../docs/experiments.md', import.meta.url), 'utf8');
    const rows = [...md.matchAll(/^\| Figure (\w+) \| `(fig\d+)` \|/gm)].map((m) => [m[2], m[1]]);
    expect(rows).toEqual(FIGURES.filter((f) => f.series === 'test').map((f) => [f.id, figureNumber(f.id)]));
  });
  it('no two groups share a URL parameter', () => {
    const all = LINKS.groups().flatMap(names);
    expect(all.length).toBe(new Set(all).size);
  });
  it('docs/sharing.md lists exactly the page’s parameters and the figures’: their views’, then their run settings’ (generated: sharing-docs.test.ts)', () => {
    const md = readFileSync(new URL('../../docs/sharing.md', import.meta.url), 'utf8');
    const listed = [...md.matchAll(/^\| `([\w.]+)` \|/gm)].map((m) => m[1]);
    const views = FIGURES.flatMap((f) => names(f.view));
    const runs = LINKS.groups().flatMap((g) => (FIGURE_IDS.includes(g.key as never) ? [] : names(g)));
    expect(listed).toEqual(['lang', 'theme', 'embed', ...views, ...runs]);
  });
});

describe.each(FIGURES.map((f) => [f.id, f] as const))('%s', (id, f) => {
  /** the run settings groups whose form it shows, keyed by their slots */
  const runs = SLOT_NAMES.filter((n) => tableOf(n).figure === id).map((n) => paramGroup(tableOf(n)));
  it('its view group is keyed by its id; the run settings it shows by their slot, one it draws', () => {
    expect(f.view.key).toBe(id);
    const drawn = f.slot ? [f.slot, ...experimentSlotsOf(f)] : [];
    for (const g of runs) expect(drawn).toContain(g.key);
  });
  it('its URL parameters are named after it', () => {
    for (const n of [...names(f.view), ...runs.flatMap(names)]) expect(n.startsWith(`${id}.`)).toBe(true);
  });
  it('writes nothing for its defaults', () => {
    const d = linkDefaults();
    expect(f.view.write(f.view.initial, f.view.initial)).toEqual([]);
    for (const g of runs) expect(g.write(d[g.key] as Settings, d[g.key] as Settings)).toEqual([]);
  });
  it('an embed of it carries its view and the run settings of the slots it draws, and reads back', () => {
    const groups = LINKS.groups(id);
    expect(groups[0]).toBe(f.view);
    const drawn = f.slot ? [f.slot, ...experimentSlotsOf(f).filter((k) => k !== f.slot)] : [];
    expect(groups.slice(1).map((g) => g.key)).toEqual(SLOT_NAMES.filter((n) => drawn.includes(n) && tableOf(n).rows.length));
    const v: ViewState = { lang: 'zh', theme: 'dark', embed: id, parts: { [id]: f.view.initial } };
    const { state, issues } = parseLink(LINKS, serializeView(LINKS, v, linkDefaults(), { only: id, embed: true, theme: true }));
    expect(issues).toEqual([]);
    expect(state).toEqual({ lang: 'zh', theme: 'dark', embed: id, parts: {} });
  });
  it('has a table and JSON for its downloads, with and without a result', () => {
    for (const doc of [null, f.slot ? docFor[f.slot] : null]) {
      const { table, json } = f.numbers({ text: { title: 'T', caption: 'C' }, proseNumbers: {}, view: f.view.initial, doc });
      expect(table.columns.length).toBeGreaterThan(0);
      for (const r of table.rows) expect(r).toHaveLength(table.columns.length);
      expect(() => JSON.stringify(json)).not.toThrow();
    }
  });
  it('says what its view is in the provenance of a download', () => {
    expect(typeof f.provenanceView(f.view.initial, { streaming: false })).toBe('object');
  });
});

describe('the slots whose stored runs wait for their figure (page/island-page.ts heldSlots)', () => {
  it('every slot drawn by figures that name it as their one slot, unless the link names its settings', () => {
    const held = heldSlots({});
    expect(held).toContain('grid');
    expect(held).toContain('probe');
    expect(heldSlots({ grid: { values: { steps: 40 } } })).not.toContain('grid');
    // nor a slot the link names by a refused setting only: its form keeps what the link set (Lab.applyLink)
    expect(heldSlots(linkGroups(parseLink(LINKS, '?fig4.steps=20000')))).not.toContain('grid');
    expect(heldSlots(linkGroups(parseLink(LINKS, '?fig1.step=9')))).toContain('grid');
    // a figure whose view chooses its slot (Figure 5 and its sign-gradient twin): never held
    for (const f of FIGURES.filter((x) => x.slotOf)) expect(held).not.toContain(f.slot);
    for (const n of held) expect(FIGURES.filter((f) => slotsOf(f.id).includes(n)).every((f) => !f.slotOf)).toBe(true);
    expect(slotsOf('fig4')).toEqual(['grid']);
  });
  it('a slot no figure draws, or one a figure with a choice of slots draws, is not held', () => {
    const only = (over: object) => [{ ...FIGURES.find((f) => f.id === 'fig4')!, ...over }];
    expect(heldSlots({}, only({}))).toEqual(['grid']);
    expect(heldSlots({}, only({ id: 'figX', slot: null }))).toEqual([]);
    expect(heldSlots({}, only({ slotOf: () => 'grid' }))).toEqual([]);
  });
  it('a held slot’s stored run, once shown, is drawn and fills the form as a stored run does after a reload (Lab.showDrawn)', async () => {
    const store = memoryStore();
    const doc = { ...grid(), config: { ...grid().config, batch: 16 } };
    await store.put(runEntry({ config: doc.config, elapsedMs: 1, doc }));
    const results = new Results(new LiveRuns(SLOT_NAMES, async () => store, ['grid']));
    results.grid.use(grid());
    const lab = new Lab(results);
    await results.runs.ready;
    lab.applyLink({});
    expect(results.grid.source).toBe('precomputed');
    expect(lab.forms.grid.values).toEqual({});
    results.runs.release('grid');
    lab.showDrawn('grid');
    expect(results.grid.source).toBe('live');
    expect(lab.forms.grid.values).toEqual(settingsOf(lab.forms.grid.table, lab.forms.grid.reference, doc.config).values);
    expect(lab.forms.grid.values).not.toEqual({});
  });
});

describe('a link’s run settings (lib/lab.svelte.ts linkAction)', () => {
  const setup = () => {
    const results = new Results(new LiveRuns(SLOT_NAMES, null));
    results.grid.use(grid());
    const lab = new Lab(results);
    return { results, lab, form: lab.forms.grid };
  };
  const other = (steps: number) => ({ ...grid(), config: { ...grid().config, steps } });
  const settingsFor = (form: Lab['forms']['grid'], steps: number): Settings => settingsOf(form.table, form.reference, other(steps).config);
  it('ask for nothing when the figure draws them, and start a run otherwise', () => {
    const { lab, form } = setup();
    expect(lab.linkAction('grid', linkDefaults().grid as Settings)).toEqual({ kind: 'drawn' });
    expect(lab.linkAction('grid', settingsFor(form, 50))).toEqual({ kind: 'start' });
  });
  it('are never run twice: the figure’s newest run is drawn, an older complete one is shown instead', () => {
    const { results, lab, form } = setup();
    const old = results.runs.begin('grid', other(50).config);
    results.runs.finish(old, { status: 'done', doc: other(50) });
    const cut = results.runs.begin('grid', other(70).config);
    results.runs.finish(cut, { status: 'partial', doc: other(70) });
    const last = results.runs.begin('grid', other(60).config);
    results.runs.finish(last, { status: 'done', doc: other(60) });
    // a reload of a page whose address names the run it drew last
    expect(lab.linkAction('grid', settingsFor(form, 60))).toEqual({ kind: 'drawn' });
    expect(lab.linkAction('grid', settingsFor(form, 50))).toEqual({ kind: 'show', id: old });
    // a partial run is not a result of those settings
    expect(lab.linkAction('grid', settingsFor(form, 70))).toEqual({ kind: 'start' });
    // a hidden complete run still counts (the page shows it again)
    results.runs.setHidden(old, true);
    expect(lab.linkAction('grid', settingsFor(form, 50))).toEqual({ kind: 'show', id: old });
  });
  it('apply as the page does: the form is filled, an earlier run is shown, another run starts (once the budget allows)', () => {
    const results = new Results(new LiveRuns(SLOT_NAMES, null));
    results.grid.use(grid());
    const started: [string, object, object][] = [];
    const lab = new Lab({ slot: (n) => results.slot(n), runs: results.runs, recompute: async (n, c, o) => void started.push([n, c, o ?? {}]) });
    const old = results.runs.begin('grid', other(50).config);
    results.runs.finish(old, { status: 'done', doc: other(50) });
    results.runs.setHidden(old, true);
    lab.applyLink({ grid: { values: { steps: 50 } } });
    expect(results.runs.get(old)?.hidden).toBe(false);
    expect(results.runs.isolated.grid).toBe(old);
    expect(started).toEqual([]);
    lab.applyLink({ grid: { values: { steps: 40 } }, probe: { base: 'small' } });
    expect(started.map(([n, c]) => [n, (c as { steps?: number }).steps])).toEqual([
      ['probe', undefined],
      ['grid', 40],
    ]);
    // one budget for the link's runs (LinkBudget), whole until they start
    const budgets = started.map(([, , o]) => (o as StartOptions).budget);
    expect(budgets[0]).toBeInstanceOf(LinkBudget);
    expect(budgets[1]).toBe(budgets[0]);
    expect(budgets[0]?.leftMs).toBe(LINK_BUDGET_MS);
    expect(lab.forms.probe.base).toBe('small');
    // the figure the link is about goes first (its #fragment: Figure 4's grid)
    started.length = 0;
    lab.applyLink({ grid: { values: { steps: 30 } }, probe: { base: 'full' } }, [], ['grid']);
    expect(started.map(([n]) => n)).toEqual(['grid', 'probe']);
  });
});
