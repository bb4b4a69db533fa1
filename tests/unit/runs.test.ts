// runs.test.ts — the run list (web/src/lib/runs/): entries and their checks, the export file and
// its import, which entries are drawn, the headlines, the IndexedDB store (fake-indexeddb) with
// its failures, and a slot's runs becoming entries (complete, partial, nothing computed).
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { EngineError, type Progress } from '../../web/src/engine/client';
import {
  drawnEntries,
  entryProblem,
  nextName,
  MAX_IMPORT_RUNS,
  parseRunsFile,
  runsFile,
  settingsDiff,
  changedSettings,
  toEntry,
  type RunEntry,
} from '../../web/src/lib/runs/entry';
import { docProblem } from '../../web/src/lib/runs/doc-check';
import { headline } from '../../web/src/lib/runs/headline';
import { judge } from '../../web/src/lib/slots';
import * as verdicts from '../../web/src/experiments/verdicts.js';
import { DB_VERSION, memoryStore, openRunStore, STORE, storageMessage, type RunStore } from '../../web/src/lib/runs/store';
import { MAX_SKIPPED_LINES, LiveRuns } from '../../web/src/lib/runs/live-runs.svelte';
import { SLOT_NAMES, Slot } from '../../web/src/lib/result-slots.svelte';
import { outOfRange } from '../../web/src/lib/runs/config-check';
import { settingsText } from '../../web/src/lib/settings';
import { UI_STRINGS } from '../../web/src/content/ui-strings';
import { runEntry } from './fixtures';

// page-chrome keys as themselves, but for the colon between a label and its value
const t = (k: string) => (k === 'sep.colon' ? ': ' : k);

const gridDoc = (loss = [6, 5, 4], placement = 'post') => ({
  config: { steps: loss.length, seeds: [0] },
  engine: { version: '1', build: 'wasm-mt', threads: 2 },
  plateau_entropy: 5.3,
  optimal_loss: 1.39,
  uniform_loss: 5.55,
  progress: 1,
  runs: [{ placement, warmup: 0, lr: 1e-3, seed: 0, status: 'ok', stop_step: null, from: 0, loss, grad_norm: [], lr_schedule: [] }],
});

const entry = (over: Partial<RunEntry> = {}): RunEntry => runEntry({ config: { steps: 3 }, doc: gridDoc(), ...over });

describe('entries', () => {
  it('are named #N after the largest number in use (and their count)', () => {
    expect(nextName([])).toBe('#1');
    expect(nextName(['#1', '#2'])).toBe('#3');
    expect(nextName(['#7', 'mine'])).toBe('#8');
    expect(nextName(['a', 'b'])).toBe('#3');
  });
  it.each([
    [null, 'it is not an object'],
    [{ ...entry(), id: '' }, 'it has no id'],
    [{ ...entry(), slot: 'fig99' }, 'its figure data "fig99" is not one this page draws'],
    [{ ...entry(), createdAt: 'yesterday' }, 'its creation date is not a date'],
    [{ ...entry(), config: 3 }, 'its settings are missing'],
    [{ ...entry(), status: 'maybe' }, 'its status "maybe" is unknown'],
    [{ ...entry(), elapsedMs: -1 }, 'its run time is not a number'],
    [{ ...entry(), elapsedMs: Infinity }, 'its run time is not a number'],
    [
      { ...entry(), doc: { ...gridDoc(), runs: [{ ...gridDoc().runs[0], loss: [6, Infinity] }] } },
      'its results are malformed (it holds a number that is not finite)',
    ],
    [{ ...entry(), doc: null }, 'it is marked complete but has no results'],
    [
      { ...entry(), doc: { ...gridDoc(), runs: [{ ...gridDoc().runs[0], placement: 'mid' }] } },
      'its results are malformed (run 1 has an unknown placement "mid")',
    ],
    [{ ...entry(), doc: { ...gridDoc(), runs: [{ ...gridDoc().runs[0], loss: ['6'] }] } }, "its results are malformed (run 1's losses are not numbers)"],
    // bounded by what the engine makes for the run's settings
    [
      { ...entry(), doc: { ...gridDoc(), runs: [{ ...gridDoc().runs[0], loss: Array(10).fill(5) }] } },
      'its results are malformed (run 1 holds 10 losses where its settings run 3 steps)',
    ],
    [
      { ...entry(), doc: { ...gridDoc(), runs: [gridDoc().runs[0], gridDoc().runs[0]] } },
      'its results are malformed (it holds 2 runs where its settings make 1)',
    ],
    [{ ...entry(), doc: { ...gridDoc(), config: { seeds: [0] } } }, 'its results are malformed (its settings have no number of steps)'],
    [{ ...entry(), config: { steps: 3, x: [[[[1]]]] } }, 'its settings are malformed (it is nested too deeply)'],
    [{ ...entry(), engine: { flavour: { a: { b: { c: 1 } } } } }, 'its engine description is malformed'],
  ])('a bad one is explained: %j', (x, why) => {
    expect(entryProblem(x, SLOT_NAMES, docProblem)).toBe(why);
  });
  it('a run whose settings nest 100,000 deep is refused with a message, not a stack overflow', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(entryProblem({ ...entry(), config: { steps: 3, deep } }, SLOT_NAMES, docProblem)).toBe('its settings are malformed (it is nested too deeply)');
    const text = JSON.stringify({ format: 'lnx-runs', version: 1, runs: [entry({ name: 'ok' })] }).replace(
      '"config":{"steps":3}',
      `"config":{"steps":3,"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    );
    const r = parseRunsFile(text, 'deep.json', SLOT_NAMES, docProblem);
    expect(r.runs).toEqual([]);
    expect(r.skipped).toEqual(['1 (“ok”): its settings are malformed (it is nested too deeply).']);
  });
  it('a good one passes; read back while running it is partial', () => {
    expect(entryProblem(entry(), SLOT_NAMES, docProblem)).toBeNull();
    expect(entryProblem(entry({ status: 'partial', doc: null }), SLOT_NAMES, docProblem)).toBeNull();
    expect(toEntry(entry({ status: 'running', fraction: 0.4 }) as never).status).toBe('partial');
  });
  it('documents are checked against their slot', () => {
    expect(docProblem('probe', { config: {}, placements: { post: { W2_per_layer: { mean: [1], std: [0] } } } })).toBe(
      'post.W2_per_batch is not a list of numbers',
    );
    expect(docProblem('adamFirstStep', { config: {}, experiment: 'step-size' })).toBe('it is the experiment "step-size", not "adam-first-step"');
    expect(docProblem('adamFirstStep', { config: {}, experiment: 'adam-first-step', x: [1, null, 'a'] })).toBeNull();
    expect(docProblem('grid', { config: {}, runs: [] })).toBe('"plateau_entropy" is not a number');
    let deep: unknown = 1;
    for (let i = 0; i < 20; i++) deep = [deep];
    expect(docProblem('stepSize', { config: {}, experiment: 'step-size', deep })).toBe('it is nested too deeply');
    // a list longer than any the settings make (the largest whole number among them, at least 4096)
    expect(docProblem('stepSize', { config: { depths: [2, 4] }, experiment: 'step-size', x: { y: Array(5000).fill(1) } })).toBe(
      'x.y holds 5000 values where its settings make at most 4096',
    );
    expect(docProblem('plateauShare', { config: { steps: 9000, seed: 1e15 }, experiment: 'plateau-share', loss: Array(9000).fill(1) })).toBeNull();
    expect(docProblem('plateauShare', { config: { steps: 9000 }, experiment: 'plateau-share', loss: Array(9002).fill(1) })).toMatch(/^loss holds 9002 values/);
    expect(docProblem('stepSize', { config: { steps: 1e7 }, experiment: 'step-size', x: Array(2_100_000).fill(0) })).toBe(
      'it holds more than 2,000,000 values',
    );
  });
  it('settings are shown where they differ from the reference', () => {
    expect(settingsDiff({ steps: 20, seeds: [0], lrs: [1e-3] }, { steps: 2000, seeds: [0, 1], lrs: [1e-3] })).toEqual(['seeds 0', 'steps 20']);
    expect(settingsDiff({ a: 1 }, null)).toEqual(['a 1']);
    expect(settingsDiff({ a: 1 }, { a: 1, b: 2 })).toEqual([]);
    // a key the engine gained later: absent in the reference means its default
    expect(settingsDiff({ a: 1, warmup_shape: 'linear' }, { a: 1 })).toEqual([]);
    expect(settingsDiff({ a: 1, warmup_shape: 'cosine' }, { a: 1 })).toEqual(['warmup_shape cosine']);
  });
  // a run's entry names what differs as the slot's form does: its label, a choice by its label, a
  // list of seeds by their count (the form's), in the form's order, a field the form does not offer
  // last and as the engine writes it
  it.each([
    [
      'grid',
      { lrs: [0.05, 0.15], optimizer: 'sgd', momentum: 0.8 },
      { lrs: [1e-3], optimizer: 'adam' },
      'en',
      ['optimizer: SGD with momentum', 'momentum μ (SGD): 0.8', 'peak lrs: 0.05, 0.15'],
    ],
    [
      'grid',
      { placements: ['post', 'deepnorm'], seeds: [0, 1, 2] },
      { placements: ['post', 'pre'], seeds: [0] },
      'en',
      ['placements: Post-LN, DeepNorm', 'seeds: 3'],
    ],
    ['grid', { warmups: [0], norm_type: 'rmsnorm' }, { warmups: [0, 300] }, 'zh', ['预热步数：0', '归一化：RMSNorm']],
    ['probe', { depth_batches: 1, placement_spec: { name: 'x' } }, {}, 'en', ['batches per depth: 1', 'placement_spec: {"name":"x"}']],
    ['warmupLength', { lr_factors: [1, 3] }, { lr_factors: [1] }, 'en', ['peak lr, as multiples of each optimizer’s suggested lr: 1, 3']],
    // what an imported file holds where a list belongs: shown as it is
    ['grid', { seeds: 5, lrs: 'x<b>' }, { seeds: [0] }, 'en', ['peak lrs: x<b>', 'seeds: 5']],
  ] as const)('%s: %j against %j in %s', (slot, config, ref, lang, want) => {
    const t = (k: string) => UI_STRINGS[lang][k] ?? k;
    expect(settingsText(slot, changedSettings(config, ref), t)).toEqual(want);
  });
});

describe('the run list file', () => {
  const ids = () => {
    let n = 0;
    return () => `new${++n}`;
  };
  it('round-trips: export, then import with new ids, marked imported', () => {
    const file = runsFile([entry(), entry({ id: 'r2', status: 'running' })], { page: 'https://x/', version: '1' }, new Date('2026-12-01T12:00:00Z'));
    expect(file.runs.map((r) => r.id)).toEqual(['r1']); // a running entry is not exported
    const r = parseRunsFile(JSON.stringify(file), 'runs.json', SLOT_NAMES, docProblem, ids(), new Date('2026-12-02T00:00:00Z'));
    expect(r.error).toBeNull();
    expect(r.skipped).toEqual([]);
    expect(r.runs).toHaveLength(1);
    expect(r.runs[0]).toMatchObject({ id: 'new1', name: '#1', config: { steps: 3 }, imported: { file: 'runs.json', at: '2026-12-02T00:00:00.000Z' } });
  });
  it.each([
    ['{', 'runs.msg.notJson'],
    ['[1,2]', 'runs.msg.notRuns'],
    ['{"format":"lnx-runs","version":2,"runs":[]}', 'runs.msg.version'],
    ['{"format":"lnx-runs","version":1}', 'runs.msg.noList'],
  ])('an unreadable file says why: %s', (text, key) => {
    const r = parseRunsFile(text, 'f.json', SLOT_NAMES, docProblem);
    expect(r.error?.key).toBe(key);
    expect(r.error?.vars?.file).toBe('f.json');
    expect(r.runs).toEqual([]);
  });
  it('a file of more runs than one import takes (a million tiny entries) is refused whole, with the count', () => {
    const text = JSON.stringify({ format: 'lnx-runs', version: 1, runs: Array(1e6).fill(5) });
    const r = parseRunsFile(text, 'many.json', SLOT_NAMES, docProblem);
    expect(r.error).toEqual({ key: 'runs.msg.tooMany', vars: { file: 'many.json', n: 1e6, max: MAX_IMPORT_RUNS } });
    expect(r.runs).toEqual([]);
    expect(r.skipped).toEqual([]);
    // at the limit it is read
    const ok = parseRunsFile(JSON.stringify({ format: 'lnx-runs', version: 1, runs: Array(MAX_IMPORT_RUNS).fill(5) }), 'f.json', SLOT_NAMES, docProblem);
    expect(ok.error).toBeNull();
    expect(ok.skipped).toHaveLength(MAX_IMPORT_RUNS);
  });
  it('skips the bad runs of a file and keeps the good ones', () => {
    const text = JSON.stringify({ format: 'lnx-runs', version: 1, runs: [entry(), { ...entry(), name: 'odd', slot: 'nope' }, 5] });
    const r = parseRunsFile(text, 'f.json', SLOT_NAMES, docProblem, ids());
    expect(r.runs.map((x) => x.id)).toEqual(['new1']);
    expect(r.skipped).toEqual(['2 (“odd”): its figure data "nope" is not one this page draws.', '3: it is not an object.']);
  });
});

describe('what a figure draws', () => {
  const es = [entry({ id: 'a' }), entry({ id: 'b', hidden: true }), entry({ id: 'c', status: 'partial', doc: null }), entry({ id: 'd' })];
  it.each([
    [null, ['a', 'd']],
    ['b', ['b']], // an isolated entry is drawn even when hidden in the list
    ['c', ['a', 'd']], // an entry with nothing computed cannot be isolated
    ['zz', ['a', 'd']],
  ])('isolated %s → %j', (iso, ids) => {
    expect(drawnEntries(es, iso).map((e) => e.id)).toEqual(ids);
  });
});

describe('headlines', () => {
  it('grid: final seed-mean loss per placement', () => {
    const g = gridDoc([6, 5, 4.25]);
    g.runs.push({ ...g.runs[0], warmup: 300, loss: [6, 3, 1.5] });
    g.runs.push({ ...g.runs[0], placement: 'pre', loss: [6, 2, 1.4] });
    expect(headline('grid', g, t)).toBe('runs.finalLoss Post-LN 1.50–4.25 · Pre-LN 1.40');
  });
  it('probe: depths and placements', () => {
    const p = { placements: { pre: { lastW2_vs_L: { '6': {}, '14': {} } }, post: { lastW2_vs_L: { '8': {} } } } };
    expect(headline('probe', p, t)).toBe('L = 6–14 · Post-LN, Pre-LN');
  });
  it('Figure H: both of its claims (warm-up, and the SGD control), as the precomputed document gives them', () => {
    const doc = JSON.parse(readFileSync(new URL('../../public/data/exp/warmup-length.summary.json', import.meta.url), 'utf8'));
    expect(headline('warmupLength', doc, t)).toBe('runs.verdict: runs.verdict.confirmed · runs.verdict.sgd: runs.verdict.refuted');
  });
  it('Figure F: the reference judged as the article judges it (the sign step beside the random perturbation), a run of one perturbation on that run alone', () => {
    const read = (f: string) => JSON.parse(readFileSync(new URL(`../../public/data/exp/${f}.json`, import.meta.url), 'utf8'));
    const random = read('output-sensitivity');
    const sign = read('output-sensitivity.sign_gradient');
    // the article's verdict (prose-numbers exp.os.verdict) and the caption's reference headline read both
    const article = verdicts.outputSensitivity(random, sign).verdict;
    expect(judge('outputSensitivity', random, sign)?.verdict).toBe(article);
    expect(headline('outputSensitivity', random, t, sign)).toBe(`runs.verdict: runs.verdict.${article}`);
    // the random perturbation alone: another verdict here (the sign step is what qualifies it), said as the run's alone
    const alone = verdicts.outputSensitivity(random, null).verdict;
    expect(alone).not.toBe(article);
    expect(headline('outputSensitivity', random, t)).toBe(`runs.verdictAlone: runs.verdict.${alone}`);
    // a slot without a second document is judged as before
    expect(headline('stepSize', read('step-size'), t)).toMatch(/^runs\.verdict: runs\.verdict\.\w+$/);
  });
  it('a verdict after its label: a space after a colon, none after a full-width one', () => {
    const warmup = JSON.parse(readFileSync(new URL('../../public/data/exp/warmup-length.summary.json', import.meta.url), 'utf8'));
    const random = JSON.parse(readFileSync(new URL('../../public/data/exp/output-sensitivity.json', import.meta.url), 'utf8'));
    const en = (k: string) => UI_STRINGS.en[k] ?? k;
    const zh = (k: string) => UI_STRINGS.zh[k] ?? k;
    expect(headline('warmupLength', warmup, en)).toBe('verdict: confirmed · SGD control: refuted');
    expect(headline('warmupLength', warmup, zh)).toBe('结论：成立 · SGD 对照：不成立');
    expect(headline('outputSensitivity', random, zh)).toBe('仅就这次运行的结论：成立');
  });
  it('never throws on a document a verdict cannot read', () => {
    expect(headline('adamFirstStep', { junk: true }, t)).toBe('');
    expect(headline('grid', null, t)).toBe('');
  });
});

describe('storage', () => {
  let n = 0;
  const fresh = () => `lnx-test-${++n}`;
  const settle = () => new Promise((r) => setTimeout(r, 20));
  it('keeps runs across visits; a run interrupted by the page closing comes back partial', async () => {
    const db = fresh();
    const a = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    await a.ready;
    expect(a.persistent).toBe(true);
    const done = a.begin('grid', { steps: 3 });
    a.finish(done, { status: 'done', doc: gridDoc(), elapsedMs: 10 });
    const cut = a.begin('grid', { steps: 9 });
    a.progress(cut, 0.5, 10, gridDoc([6, 5]));
    a.rename(done, '  mine  ');
    await settle();
    const b = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    await b.ready;
    expect(b.of('grid').map((e) => [e.name, e.status])).toEqual([
      ['mine', 'done'],
      ['#2', 'partial'],
    ]);
    expect(b.get(cut)?.doc).toEqual(gridDoc([6, 5]));
  });
  it('runs begun within the same millisecond come back in the order they were begun', async () => {
    const db = fresh();
    const a = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    await a.ready;
    const at = new Date('2026-12-01T10:00:00Z');
    const ids = Array.from({ length: 20 }, () => a.begin('grid', { steps: 3 }, at));
    for (const id of ids) a.finish(id, { status: 'done', doc: gridDoc(), elapsedMs: 10 });
    const times = a.of('grid').map((e) => Date.parse(e.createdAt));
    expect(times.every((t, i) => i === 0 || t > times[i - 1])).toBe(true);
    await settle();
    const b = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    await b.ready;
    expect(b.of('grid').map((e) => e.id)).toEqual(ids);
  });
  it('a run started before the stored runs arrived keeps its place after them and takes a free name', async () => {
    const db = fresh();
    const a = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    await a.ready;
    a.finish(a.begin('grid', { steps: 3 }), { status: 'done', doc: gridDoc(), elapsedMs: 10 });
    await settle();
    const b = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    const early = b.begin('grid', { steps: 4 }); // named "#1": the stored "#1" is not read yet
    const other = b.begin('warmupLength', { steps: 4 });
    expect(b.get(early)?.name).toBe('#1');
    await b.ready;
    expect(b.of('grid').map((e) => e.name)).toEqual(['#1', '#2']);
    expect(b.entries.at(-1)?.id).toBe(other);
    expect(b.get(other)?.name).toBe('#1'); // no clash in its own slot
    b.finish(early, { status: 'done', doc: gridDoc(), elapsedMs: 10 });
    await settle();
    const c = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    await c.ready;
    expect(c.get(early)?.name).toBe('#2'); // the new name is stored
  });
  it('a damaged entry is skipped, said, and left in storage', async () => {
    const db = fresh();
    const s = await openRunStore(db);
    await s.put(entry({ id: 'ok' }));
    const raw = await openDB(db);
    await raw.put(STORE, { id: 'bad', slot: 'grid', status: 'done' });
    raw.close();
    const l = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    await l.ready;
    expect(l.of('grid').map((e) => e.id)).toEqual(['ok']);
    // said once (the first list on the page), not in every figure's list
    expect(l.message[SLOT_NAMES[0]]).toEqual([{ key: 'runs.msg.unreadable', vars: { n: 1 } }]);
    expect(Object.values(l.message).filter((m) => m?.length)).toHaveLength(1);
    expect((await s.all()).length).toBe(2);
  });
  it('a run the page was closed on before it computed anything is dropped, not listed as "partial (0%)"', async () => {
    const db = fresh();
    const s = await openRunStore(db);
    await s.put(entry({ id: 'empty', slot: 'probe', status: 'running', doc: null, fraction: 0 }));
    await s.put(entry({ id: 'half', status: 'running', fraction: 0.5 }));
    const l = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    await l.ready;
    expect(l.entries.map((e) => [e.id, e.status])).toEqual([['half', 'partial']]);
    await settle();
    expect((await s.all()).map((e) => (e as RunEntry).id)).toEqual(['half']);
  });
  it('a store written by a newer version of the page is named as such and left untouched', async () => {
    const db = fresh();
    const old = await openDB(db, DB_VERSION, { upgrade: (d) => void d.createObjectStore(STORE, { keyPath: 'id' }) });
    await old.put(STORE, entry({ id: 'kept' }));
    old.close();
    const newer = await openDB(db, DB_VERSION + 1, { upgrade() {} });
    newer.close();
    const l = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    await l.ready;
    expect(l.persistent).toBe(false);
    expect(l.message[SLOT_NAMES[0]]).toEqual([{ key: 'runs.msg.newerStore' }]);
    const again = await openDB(db);
    expect((await again.getAll(STORE)).map((e) => e.id)).toEqual(['kept']);
    expect(again.version).toBe(DB_VERSION + 1);
    again.close();
  });
  it('a full quota keeps the run in memory and says so; the other runs are untouched', async () => {
    const mem = memoryStore();
    const full: RunStore = { ...mem, put: () => Promise.reject(Object.assign(new Error('full'), { name: 'QuotaExceededError' })) };
    const l = new LiveRuns(SLOT_NAMES, async () => full);
    await l.ready;
    const id = l.begin('probe', {});
    await settle();
    expect(l.get(id)).toBeTruthy();
    expect(l.message.probe).toEqual([{ key: 'runs.msg.full' }]);
  });
  it('no storage (private mode): runs last the visit, and the list says so', async () => {
    const l = new LiveRuns(SLOT_NAMES, () => Promise.reject(Object.assign(new Error('denied'), { name: 'InvalidStateError' })));
    await l.ready;
    expect(l.persistent).toBe(false);
    expect(l.message[SLOT_NAMES[0]]).toEqual([storageMessage(null, 'open')]);
    expect(l.message.grid).toBeUndefined(); // once, not in every list (each list's heading says "not saved")
    l.begin('grid', {});
    expect(l.of('grid')).toHaveLength(1);
  });
  it('remove, then undo, restores the entry in its place and in storage', async () => {
    const db = fresh();
    const l = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    await l.ready;
    const a = l.begin('grid', {}, new Date('2026-12-01T10:00:00Z'));
    const b = l.begin('grid', {}, new Date('2026-12-01T11:00:00Z'));
    for (const id of [a, b]) l.finish(id, { status: 'done', doc: gridDoc() });
    l.remove(a, true);
    expect(l.of('grid').map((e) => e.id)).toEqual([b]);
    l.undoRemove();
    expect(l.of('grid').map((e) => e.id)).toEqual([a, b]);
    await settle();
    const again = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    await again.ready;
    expect(again.of('grid')).toHaveLength(2);
  });
  it('import adds runs and says where they went; a second import duplicates, never overwrites', async () => {
    const l = new LiveRuns(SLOT_NAMES, null);
    const text = JSON.stringify(runsFile([entry(), entry({ id: 'x', slot: 'probe', doc: null, status: 'partial' })], { page: '', version: '' }));
    l.importText(text, 'r.json', 'grid', (s) => (s === 'grid' ? 'Figure 4' : 'Figures 2, 3'));
    l.importText(text, 'r.json', 'grid', (s) => s);
    expect(l.entries).toHaveLength(4);
    expect(new Set(l.entries.map((e) => e.id)).size).toBe(4);
    expect(l.message.grid?.[0]).toEqual({ key: 'runs.msg.imported', vars: { n: 2, file: 'r.json', where: 'grid × 1, probe × 1' } });
  });
  it('an import with many skipped runs names the first few and counts the rest', () => {
    const l = new LiveRuns(SLOT_NAMES, null);
    const text = JSON.stringify({ format: 'lnx-runs', version: 1, runs: [entry(), ...Array(25).fill(5)] });
    l.importText(text, 'r.json', 'grid', (s) => s);
    const msg = l.message.grid ?? [];
    expect(msg[0]).toMatchObject({ key: 'runs.msg.imported', vars: { n: 1 } });
    expect(msg.filter((m) => m.key === 'runs.msg.skipped')).toHaveLength(MAX_SKIPPED_LINES);
    expect(msg[msg.length - 1]).toEqual({ key: 'runs.msg.skippedMore', vars: { n: 25 - MAX_SKIPPED_LINES } });
    expect(l.entries).toHaveLength(1);
  });
});

describe('a slot’s runs become entries', () => {
  const p = (fraction: number): Progress => ({ fraction, elapsedMs: fraction * 1000, etaMs: 100, paused: false });
  type Doc = { config: object; v: number };
  const ref: Doc = { config: {}, v: 0 };
  const make = () => {
    const runs = new LiveRuns(['grid'], null);
    const s = new Slot<Doc>('grid', runs);
    s.precomputed = ref;
    return { runs, s };
  };
  it('a run of the reference’s settings asks for the exact arithmetic; any other may use fused multiply-adds', async () => {
    const { s } = make();
    s.precomputed = { config: { steps: 3, lrs: [0.001] }, v: 0 };
    const asked: unknown[] = [];
    const go = async (_: unknown, __: AbortSignal, o: { exact?: boolean }) => (asked.push(o.exact), { config: {}, v: 1 });
    await s.start(go, { steps: 3, lrs: [0.001] });
    await s.start(go, { steps: 3 }); // a key left out runs as the reference has it here: exact is only slower
    await s.start(go, { steps: 4, lrs: [0.001] });
    await s.start(go, { steps: 3, lrs: [0.003] });
    s.precomputed = null; // no reference: nothing to reproduce
    await s.start(go, { steps: 3 });
    expect(asked).toEqual([true, true, false, false, false]);
  });
  it('a complete run is the slot’s current result; hiding it shows the reference again', async () => {
    const { runs, s } = make();
    await s.start(async (onP) => (onP(p(0.5)), { config: {}, v: 1 }), { steps: 3 });
    expect(runs.of('grid')).toHaveLength(1);
    expect(runs.of('grid')[0]).toMatchObject({ status: 'done', config: { steps: 3 }, fraction: 1 });
    expect(s.data?.v).toBe(1);
    expect(s.source).toBe('live');
    runs.setHidden(runs.of('grid')[0].id, true);
    expect(s.data).toBe(ref);
    expect(s.source).toBe('precomputed');
  });
  it('a cancelled run keeps what it streamed, marked partial, and does not become the current result', async () => {
    const { runs, s } = make();
    const ac = new AbortController();
    const go = (onP: (q: Progress, d?: Doc) => void) =>
      new Promise<Doc>((_, reject) => {
        onP(p(0.3), { config: {}, v: 2 });
        ac.signal.addEventListener('abort', () => reject(new EngineError('cancelled', 'cancelled')));
      });
    const done = s.start(go, {});
    s.cancel();
    ac.abort();
    await done;
    expect(runs.of('grid')[0]).toMatchObject({ status: 'partial', fraction: 0.3, doc: { v: 2 } });
    expect(s.keptPartial).toBe(true);
    expect(s.data).toBe(ref);
    expect(runs.drawn('grid')).toHaveLength(1);
  });
  it('a failed run that computed nothing leaves no entry', async () => {
    const { runs, s } = make();
    await s.start(() => Promise.reject(new EngineError('engine', 'steps must be at least 1')), {});
    expect(runs.of('grid')).toEqual([]);
    expect(s.run.phase).toBe('error');
    expect(s.keptPartial).toBe(false);
  });
});

describe("settings outside the engine's ranges (runs/config-check.ts)", () => {
  it.each([
    ['grid', { d: 1e9 }, ['d = 1000000000 (the engine takes a whole number from 2 to 4096)']],
    ['grid', { lrs: [0.001, -1] }, ['lrs = 0.001, -1 (the engine takes a number above 0 to 10)']],
    ['grid', { placements: ['post', 'x'] }, ['placements = "post", "x" (the engine takes one of post, pre, peri, deepnorm, admin)']],
    ['grid', { seeds: [0, 1, 2, 3, 4, 5, 6, 7, 8] }, ['seeds = 0, 1, 2, 3, 4, 5, 6, 7, 8 (the engine takes at most 8 values)']],
    ['grid', { layers: 2.5 }, ['layers = 2.5 (the engine takes a whole number from 1 to 64)']],
    ['grid', { zz: 1 }, ["zz (not a setting of this figure's engine run)"]],
    ['grid', { d: 128, lrs: [0.001], steps: 500 }, []],
    ['probe', { targets: '(t+1) mod V', depths: [6, 8] }, []],
    ['stepSize', { depths: [2, 4, 8], seeds: [0] }, []],
    ['stepSize', { steps: 10 }, ["steps (not a setting of this figure's engine run)"]],
    // a placement_spec's own placement name is one the placement fields take
    ['grid', { placements: ['post', 'mine'], placement_spec: { name: 'mine' } }, []],
    [
      'grid',
      { placements: ['post', 'x'], placement_spec: { name: 'mine' } },
      ['placements = "post", "x" (the engine takes one of post, pre, peri, deepnorm, admin, mine)'],
    ],
  ] as const)('%s %j', (slot, config, want) => expect(outOfRange(slot, config as never)).toEqual(want));
  it('an import marks such runs and says how many', () => {
    const l = new LiveRuns(SLOT_NAMES, null);
    const file = { format: 'lnx-runs', version: 1, runs: [entry({ name: 'big', config: { steps: 3, d: 1e9 } }), entry({ name: 'fine' })] };
    const got = l.importText(JSON.stringify(file), 'f.json', 'grid', (s) => s);
    expect(got.map((e) => e.name)).toEqual(['big', 'fine']);
    expect(l.message.grid?.map((m) => m.key)).toEqual(['runs.msg.imported', 'runs.msg.outOfRange']);
    expect(l.message.grid?.[1].vars).toEqual({ n: 1 });
  });
});

describe('two tabs of one store (BroadcastChannel)', () => {
  const wait = (ms = 30) => new Promise((r) => setTimeout(r, ms));
  it('see each other’s runs, and runs begun at once in both get different names', async () => {
    const db = `two-tabs-${Math.random()}`;
    const a = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    const b = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    await Promise.all([a.ready, b.ready]);
    // both begin their first Figure 4 run before hearing of the other's: both call it #1
    const at = new Date('2026-12-03T10:00:00Z');
    const ia = a.begin('grid', {}, at);
    const ib = b.begin('grid', {}, new Date(at.getTime() + 5));
    expect([a.get(ia)?.name, b.get(ib)?.name]).toEqual(['#1', '#1']);
    await wait(100);
    // the later one (b's) was renamed by its own tab, and both tabs list both under the same names
    const names = (l: LiveRuns) => l.of('grid').map((e) => `${e.id === ia ? 'a' : 'b'}:${e.name}`);
    expect(names(a)).toEqual(['a:#1', 'b:#2']);
    expect(names(b)).toEqual(['a:#1', 'b:#2']);
    // a removal in one tab leaves the other's list too
    b.remove(ia);
    await wait(100);
    expect(a.of('grid').map((e) => e.id)).toEqual([ib]);
  });
});

describe('held slots: stored runs shown when their figure is live (LiveRuns hold, release)', () => {
  const settle = () => new Promise((r) => setTimeout(r, 20));
  const stored = async () => {
    const db = `held-${Math.random()}`;
    const s = await openRunStore(db);
    await s.put(entry({ id: 'g1', name: 'big' }));
    await s.put(entry({ id: 'p1', slot: 'probe', name: '#1', status: 'error', doc: null }));
    return db;
  };
  it("a held slot reads as before its stored runs were read until it is released; the others' show at once", async () => {
    const db = await stored();
    const l = new LiveRuns(SLOT_NAMES, () => openRunStore(db), ['grid']);
    await l.ready;
    expect([l.holds('grid'), l.holdsEntries('grid'), l.holds('probe')]).toEqual([true, true, false]);
    expect(l.of('grid')).toEqual([]);
    expect(l.drawn('grid')).toEqual([]);
    expect(l.of('probe').map((e) => e.id)).toEqual(['p1']);
    // what releasing it will draw, for the work done ahead (page/live-page.svelte.ts runsToPrepare)
    expect(l.heldDocs('grid')).toEqual([gridDoc()]);
    expect(l.heldDocs('probe')).toEqual([]);
    l.release('grid');
    expect(l.heldDocs('grid')).toEqual([]);
    expect([l.holds('grid'), l.holdsEntries('grid')]).toEqual([false, false]);
    expect(l.drawn('grid').map((e) => e.id)).toEqual(['g1']);
    const before = l.entries;
    l.release('grid'); // again: nothing changes
    expect(l.entries).toBe(before);
  });
  it('the slot’s current result is the reference while held, the stored run once released', async () => {
    const db = await stored();
    const runs = new LiveRuns(SLOT_NAMES, () => openRunStore(db), ['grid']);
    const s = new Slot<unknown>('grid', runs);
    s.precomputed = gridDoc([9, 8, 7]);
    await runs.ready;
    expect([s.source, s.entry]).toEqual(['precomputed', null]);
    runs.release('grid');
    expect([s.source, s.entry?.id]).toEqual(['live', 'g1']);
    expect(s.data).toEqual(gridDoc());
  });
  it('a run begun while its slot is held keeps its place after the stored ones and takes a free name and number', async () => {
    const db = await stored();
    const l = new LiveRuns(SLOT_NAMES, () => openRunStore(db), ['grid']);
    await l.ready;
    const early = l.begin('grid', { steps: 4 });
    expect(l.get(early)).toMatchObject({ name: '#1', n: 1 });
    l.finish(early, { status: 'done', doc: gridDoc(), elapsedMs: 10 });
    l.release('grid');
    expect(l.of('grid').map((e) => [e.id, e.name, e.n])).toEqual([
      ['g1', 'big', 1],
      [early, '#1', 2], // its name is free (the stored run is named 'big'), its number is not
    ]);
    await settle();
    const again = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    await again.ready;
    expect(again.get(early)?.n).toBe(2); // the new number is stored
  });
  it('a held slot with nothing stored holds no entries; a slot released before the store is read is not held', async () => {
    const db = `held-${Math.random()}`;
    const l = new LiveRuns(SLOT_NAMES, () => openRunStore(db), ['grid', 'probe']);
    l.release('probe');
    await l.ready;
    expect([l.holds('grid'), l.holdsEntries('grid'), l.holds('probe')]).toEqual([true, false, false]);
  });
  it('another tab’s write to a held slot waits with its stored runs; its removal removes it there', async () => {
    const db = await stored();
    const l = new LiveRuns(SLOT_NAMES, () => openRunStore(db), ['grid']);
    await l.ready;
    const tab = (m: unknown) => (l as unknown as { fromOtherTab(m: unknown): void }).fromOtherTab(m);
    tab({ type: 'put', entry: entry({ id: 'g2', name: '#2', n: 2, createdAt: '2026-12-01T11:00:00.000Z' }) });
    tab({ type: 'delete', id: 'g1' });
    expect(l.of('grid')).toEqual([]);
    l.release('grid');
    expect(l.of('grid').map((e) => e.id)).toEqual(['g2']);
  });
});

describe('run numbers', () => {
  it('are given at the start, kept after a removal and a reload, and numbered once for entries stored without one', async () => {
    const db = `numbers-${Math.random()}`;
    const s = await openRunStore(db);
    await s.put({ ...entry({ id: 'old1', createdAt: '2026-12-01T09:00:00.000Z' }), n: undefined } as never);
    await s.put({ ...entry({ id: 'old2', createdAt: '2026-12-01T09:30:00.000Z' }), n: undefined } as never);
    const a = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    await a.ready;
    expect(a.of('grid').map((e) => [e.id, e.n])).toEqual([
      ['old1', 1],
      ['old2', 2],
    ]);
    const x = a.begin('grid', {});
    a.finish(x, { status: 'done', doc: gridDoc(), elapsedMs: 1 });
    expect(a.get(x)?.n).toBe(3);
    a.remove('old1');
    const y = a.begin('grid', {});
    a.finish(y, { status: 'done', doc: gridDoc(), elapsedMs: 1 });
    expect(a.get(y)?.n).toBe(4); // never a number in use; the removed one's is not reused while others are higher
    await new Promise((r) => setTimeout(r, 50));
    const b = new LiveRuns(SLOT_NAMES, () => openRunStore(db));
    await b.ready;
    expect(b.of('grid').map((e) => [e.id, e.n])).toEqual([
      ['old2', 2],
      [x, 3],
      [y, 4],
    ]);
  });
  /** A list holding one finished run of the grid (#1). */
  const listWithOne = () => {
    const l = new LiveRuns(SLOT_NAMES, null);
    l.finish(l.begin('grid', {}), { status: 'done', doc: gridDoc(), elapsedMs: 1 });
    return l;
  };
  it('imported runs take the next numbers of their slots', () => {
    const l = listWithOne();
    const file = { format: 'lnx-runs', version: 1, runs: [entry({ n: 7 }), entry({ n: 7, id: 'r2' })] };
    expect(l.importText(JSON.stringify(file), 'f.json', 'grid', (s) => s).map((e) => e.n)).toEqual([2, 3]);
  });
  it('an imported run named by its list ("#7") takes its new number’s name; a name a reader gave stays', () => {
    const l = listWithOne();
    const file = {
      format: 'lnx-runs',
      version: 1,
      runs: [entry({ n: 1, name: '#1' }), entry({ n: 7, id: 'r2', name: 'baseline' }), entry({ n: 2, id: 'r3', name: '#2' })],
    };
    expect(l.importText(JSON.stringify(file), 'f.json', 'grid', (s) => s).map((e) => [e.n, e.name])).toEqual([
      [2, '#2'],
      [3, 'baseline'],
      [4, '#4'],
    ]);
    expect(l.of('grid').map((e) => e.name)).toEqual(['#1', '#2', 'baseline', '#4']);
  });
  it('a number that is not a whole number makes a bad entry', () => {
    expect(entryProblem({ ...entry(), n: 1.5 }, SLOT_NAMES, docProblem)).toBe('its number is not a whole number');
  });
});
