// registry.test.ts — the contract every figure of web/src/figures/registry.ts keeps, checked for each
// figure (a new one is tested the day it is added): its id, its URL parameters (named after it,
// unique, parse what they write, listed in docs/sharing.md), its run settings (keyed by the slot it
// draws), and its downloads (a table and JSON even with no result yet).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIGURES, FIGURE_IDS, LINKS, figureById, figureNumber, linkDefaults, linkRunAction } from '../../web/src/figures/registry';
import { parseLink, serializeView, type ViewState } from '../../web/src/lib/permalink';
import { adamFirstStep, depthFactors, grid, outputSensitivity, phaseDiagram, plateauShare, probe, stepSize, tiedOutput, warmupLength } from './fixtures';
import { Results, SLOT_NAMES, type SlotName } from '../../web/src/lib/result-slots.svelte';
import { LiveRuns } from '../../web/src/lib/runs/live-runs.svelte';

const docFor: Record<SlotName, unknown> = {
  probe: probe(),
  grid: grid(),
  outputSensitivity: outputSensitivity(),
  outputSensitivitySign: outputSensitivity('sign_gradient'),
  tiedOutput: tiedOutput(),
  adamFirstStep: adamFirstStep(),
  warmupLength: warmupLength(),
  plateauShare: plateauShare(),
  stepSize: stepSize(),
  depthFactors: depthFactors(),
  phaseDiagram: phaseDiagram(['post', 'pre', 'deepnorm', 'peri']),
  deepNorm: phaseDiagram(),
  preWarmup: phaseDiagram(['pre'], { early_exit: 'off' }),
};
const names = (g: { params: Record<string, unknown> }) => Object.keys(g.params);

describe('the registry', () => {
  it('lists each of fig1 … fig15 once', () => {
    expect([...FIGURE_IDS].sort()).toEqual(FIGURES.map((_, i) => `fig${i + 1}`).sort());
  });
  it('numbers the article’s figures 1, 2, … and letters the page’s tests A, B, …, each in page order', () => {
    expect(FIGURES.map((f) => `${f.id}:${figureNumber(f.id)}`)).toEqual([
      'fig1:1',
      'fig2:2',
      'fig3:3',
      'fig6:A',
      'fig11:B',
      'fig7:C',
      'fig10:D',
      'fig5:E',
      'fig4:4',
      'fig8:F',
      'fig9:G',
      'fig13:H',
      'fig14:I',
      'fig15:J',
    ]);
    // the article's figures keep the numbers the source article gives them
    for (const f of FIGURES.filter((g) => g.series === 'article')) expect(figureNumber(f.id)).toBe(f.id.slice(3));
    expect(figureNumber('fig15')).toBeUndefined();
    expect(figureNumber('x')).toBeUndefined();
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
  it('docs/sharing.md lists exactly the page’s parameters and the figures’', () => {
    const md = readFileSync(new URL('../../docs/sharing.md', import.meta.url), 'utf8');
    const listed = [...md.matchAll(/^\| `([\w.]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(['lang', 'theme', 'embed', ...LINKS.groups().flatMap(names)]);
  });
});

describe.each(FIGURES.map((f) => [f.id, f] as const))('%s', (id, f) => {
  it('its view group is keyed by its id; its run settings by the slot it draws', () => {
    expect(f.view.key).toBe(id);
    if (f.run) expect(f.run.key).toBe(f.slot);
  });
  it('its URL parameters are named after it', () => {
    for (const n of [...names(f.view), ...(f.run ? names(f.run) : [])]) expect(n.startsWith(`${id}.`)).toBe(true);
  });
  it('writes nothing for its defaults', () => {
    const d = linkDefaults();
    expect(f.view.write(f.view.initial, f.view.initial)).toEqual([]);
    if (f.run) expect(f.run.write(d[f.run.key] as never, d[f.run.key] as never)).toEqual([]);
  });
  it('an embed of it carries its view and the run settings of its slot, and reads back', () => {
    const groups = LINKS.groups(id);
    expect(groups[0]).toBe(f.view);
    expect(groups.slice(1).map((g) => g.key)).toEqual(f.slot && LINKS.groups().some((g) => g.key === f.slot) ? [f.slot] : []);
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

describe('a link’s run settings', () => {
  const fig4 = figureById('fig4')!;
  const setup = () => {
    const results = new Results(new LiveRuns(SLOT_NAMES, null));
    results.grid.use(grid());
    const d = linkDefaults(results).grid;
    return { results, d };
  };
  const other = (steps: number) => ({ ...grid(), config: { ...grid().config, steps } });
  it('ask for nothing when the figure draws them, and start a run otherwise', () => {
    const { results, d } = setup();
    expect(linkRunAction(fig4, d, results, d)).toEqual({ kind: 'drawn' });
    expect(linkRunAction(fig4, fig4.run!.of(other(50).config)!, results, d)).toEqual({ kind: 'start' });
  });
  it('are never run twice: the figure’s newest run is drawn, an older complete one is shown instead', () => {
    const { results, d } = setup();
    const old = results.runs.begin('grid', other(50).config);
    results.runs.finish(old, { status: 'done', doc: other(50) });
    const cut = results.runs.begin('grid', other(70).config);
    results.runs.finish(cut, { status: 'partial', doc: other(70) });
    const last = results.runs.begin('grid', other(60).config);
    results.runs.finish(last, { status: 'done', doc: other(60) });
    // a reload of a page whose address names the run it drew last
    expect(linkRunAction(fig4, fig4.run!.of(other(60).config)!, results, d)).toEqual({ kind: 'drawn' });
    expect(linkRunAction(fig4, fig4.run!.of(other(50).config)!, results, d)).toEqual({ kind: 'show', id: old });
    // a partial run is not a result of those settings
    expect(linkRunAction(fig4, fig4.run!.of(other(70).config)!, results, d)).toEqual({ kind: 'start' });
    // a hidden complete run still counts (the page shows it again)
    results.runs.setHidden(old, true);
    expect(linkRunAction(fig4, fig4.run!.of(other(50).config)!, results, d)).toEqual({ kind: 'show', id: old });
  });
});
