// fake-experiment.test.ts — an experiment figure registered by this test alone (its slot's declaration
// and its FigureDef, as experiments/<name>.ts and figures/figN/index.ts would give them): the slot
// table, the run list's headline, the permalinks and the downloads find it with no other list changed.
import { describe, expect, it } from 'vitest';
import type { FigureId } from '../../web/src/content/types';
import { list, num, obj, record, type ExperimentDecl } from '../../web/src/experiments/types';
import { FIGURES, LINKS, figureById, figureNumber, initialViews, linkDefaults, registerFigure, type AnyFigure } from '../../web/src/figures/registry';
import { fileName, provenance, toCsv, toJson } from '../../web/src/lib/export';
import { parseLink, serializeView, written } from '../../web/src/lib/permalink';
import { Results } from '../../web/src/lib/result-slots.svelte';
import { headline } from '../../web/src/lib/runs/headline';
import { LiveRuns } from '../../web/src/lib/runs/live-runs.svelte';
import { EXPERIMENT_SLOTS, SLOT_NAMES, precomputedPath, registerSlots, type SlotName } from '../../web/src/lib/slots';
import { Lab } from '../../web/src/lib/lab.svelte';
import { tableOf } from '../../web/src/lib/settings';

const slot = 'fakeSlope' as SlotName;
const id = 'fig99' as FigureId;
const decl: ExperimentDecl = {
  experiment: 'fake-slope',
  file: 'fake-slope',
  config: {},
  small: { depths: [2, 4] },
  // its form: no field of an engine experiment the test has not got, but its small setting
  settings: { url: 'fig99', fields: [] },
  shape: obj({ placements: record(obj({ slope: num, depths: list(num) })) }),
  verdict: (doc: { placements: Record<string, { slope: number }> }) => ({ verdict: doc.placements.post.slope > 0.75 ? 'confirmed' : 'refuted' }),
};
const fig: AnyFigure = {
  id,
  series: 'test',
  component: null as never,
  strings: [],
  slot,
  view: {
    key: id,
    initial: { log: false },
    params: { [`${id}.scale`]: { parse: (v: string) => (v === 'log' ? { log: true } : null), reason: 'url.fake' } },
    write: (s: { log: boolean }) => written(s.log && [`${id}.scale`, 'log']),
  },
  numbers: ({ doc }) => ({
    table: { columns: ['placement', 'slope'], rows: Object.entries(doc?.placements ?? {}).map(([p, s]) => [p, (s as { slope: number }).slope]) },
    json: doc?.placements ?? null,
  }),
  provenanceView: (v) => ({ ...v }),
};
registerSlots({ [slot]: decl });
registerFigure(fig);
const doc = {
  experiment: 'fake-slope',
  engine: { version: '0.1.0', build: 'native' as const, threads: 1 },
  config: { depths: [2, 4], seeds: [0, 1] },
  generated: '2026-01-02T00:00:00Z',
  placements: { post: { slope: 0.9, depths: [2, 4] } },
};

describe('an experiment figure registered by a test', () => {
  it('is in the slot table, with its precomputed file', () => {
    expect(EXPERIMENT_SLOTS[slot as keyof typeof EXPERIMENT_SLOTS]).toBe(decl);
    expect(SLOT_NAMES).toContain(slot);
    expect(precomputedPath(slot)).toBe('data/exp/fake-slope.json');
  });
  it('is a figure of the page, lettered after the page’s tests', () => {
    expect(figureById(id)).toBe(fig);
    // the letter after the last of the page's own test figures (H with seven, I with eight, …)
    const before = FIGURES.filter((f) => f.series === 'test' && f.id !== id).length;
    expect(figureNumber(id)).toBe(String.fromCharCode(65 + before));
    expect(initialViews()[id]).toEqual({ log: false });
  });
  it('has a slot in the results, and its verdict is the run list’s headline', () => {
    const results = new Results(new LiveRuns(SLOT_NAMES, null));
    expect(results.slot(slot).name).toBe(slot);
    expect(headline(slot, doc, (k) => (k === 'sep.colon' ? ': ' : k))).toBe('runs.verdict: runs.verdict.confirmed');
  });
  it('is in the permalinks: its view is written, read back and embedded', () => {
    expect(LINKS.figures).toContain(id);
    expect(LINKS.groups().map((g) => g.key)).toContain(id);
    const v = { lang: 'en' as const, parts: { [id]: { log: true } } };
    const search = serializeView(LINKS, v, linkDefaults());
    expect(search).toContain(`${id}.scale=log`);
    expect(parseLink(LINKS, search).state.parts[id]).toEqual({ log: true });
    const embed = parseLink(LINKS, serializeView(LINKS, { ...v, embed: id }, linkDefaults(), { only: id, embed: true }));
    expect(embed.issues).toEqual([]);
    expect(embed.state.embed).toBe(id);
  });
  it('has a settings form whose small setting links carry (its field table, lib/settings.ts)', () => {
    expect(tableOf(slot)).toMatchObject({ figure: id, kind: 'fake-slope', bases: { url: `${id}.setting`, values: { small: decl.small } } });
    const lab = new Lab(new Results(new LiveRuns(SLOT_NAMES, null)));
    expect(lab.forms[slot].config).toEqual({});
    lab.forms[slot].setBase('small');
    expect(lab.forms[slot].config).toEqual({ depths: [2, 4] });
    const search = serializeView(LINKS, { lang: 'en', parts: Object.fromEntries(lab.linkParts()) }, linkDefaults());
    expect(search).toBe(`lang=en&${id}.setting=small`);
    expect(parseLink(LINKS, search).state.parts[slot]).toEqual({ base: 'small' });
  });
  it('a slot declared without settings keeps its small setting in its figure’s form, and has no URL parameters', () => {
    const bare = 'fakeBare' as SlotName;
    registerSlots({ [bare]: { ...decl, settings: undefined } });
    expect(tableOf(bare)).toMatchObject({ figure: '', rows: [], bases: { values: { small: decl.small } } });
    expect(LINKS.groups().map((g) => g.key)).not.toContain(bare);
  });
  it('has downloads: its numbers with the provenance of its slot’s document', () => {
    const results = new Results(new LiveRuns(SLOT_NAMES, null));
    results.slot(slot).use(doc as never);
    const drawn = results.slot(slot).data as typeof doc;
    const { table, json } = fig.numbers({ text: { title: 'T', caption: 'C' }, proseNumbers: {}, view: fig.view.initial, doc: drawn });
    const prov = provenance({
      figure: id,
      title: 'T',
      url: `?embed=${id}`,
      source: 'precomputed',
      doc: drawn,
      now: new Date('2026-02-03T00:00:00Z'),
      lang: 'en',
    });
    expect(toCsv(table, prov)).toContain('post,0.9');
    expect(JSON.parse(toJson(json, prov))).toMatchObject({ provenance: { figure: id, seeds: [0, 1], config: doc.config } });
    expect(fileName(id, prov.source, 'csv', prov.computed!)).toContain(id);
  });
});
