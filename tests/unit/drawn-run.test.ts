// drawn-run.test.ts — the run a figure draws on top and what its caption, badge and legend say of
// it (lib/runs/drawn-run.ts), and the slots that use it (lib/result-slots.svelte.ts Slot.drawnRun,
// Slot.drawn): a streaming run is named live and in progress from its first curves, a cancelled one
// that stays drawn is named cancelled at the step it reached, in both languages; a slot whose figure
// draws complete runs only is not changed by a partial one.
import { describe, expect, it } from 'vitest';
import { UI_STRINGS } from '../../web/src/content/ui-strings';
import {
  DRAWN_STATES,
  badgeLead,
  describeRun,
  drawnRun,
  drawnState,
  reachedSteps,
  reachedWords,
  stateTag,
  stateWords,
  topEntry,
} from '../../web/src/lib/runs/drawn-run';
import type { RunEntry } from '../../web/src/lib/runs/entry';
import { Results, Slot } from '../../web/src/lib/result-slots.svelte';
import { LiveRuns } from '../../web/src/lib/runs/live-runs.svelte';
import { SLOT_NAMES } from '../../web/src/lib/slots';
import { EngineError, type Progress } from '../../web/src/engine/client';
import { GRID_DEFAULTS } from '../../web/src/generated/engine-schema';
import type { GridResult } from '../../web/src/engine/documents';
import { grid } from './fixtures';
import { proseNumbers } from '../../web/src/lib/prose-numbers';
import { headline } from '../../web/src/lib/runs/headline';

const t = (lang: 'en' | 'zh') => (k: string) => UI_STRINGS[lang][k] ?? k;

/** the fixture grid cut to its first `n` steps (what a run streamed so far), set to `steps` */
const cut = (n: number, steps = 1000, seeds = [0, 1]): GridResult => {
  const g = grid();
  const runs = g.runs.filter((r) => seeds.includes(r.seed)).map((r) => ({ ...r, loss: r.loss.slice(0, n) }));
  return { ...g, config: { ...g.config, steps, seeds }, runs };
};
const entry = (p: Partial<RunEntry>): RunEntry => ({
  id: 'r1',
  slot: 'grid',
  name: '#1',
  n: 1,
  createdAt: '2026-12-05T08:00:00.000Z',
  finishedAt: '2026-12-05T08:01:00.000Z',
  config: {},
  status: 'done',
  message: '',
  fraction: 1,
  elapsedMs: 1000,
  engine: null,
  doc: cut(200, 200),
  hidden: false,
  imported: null,
  ...p,
});

describe('topEntry: the run drawn on top', () => {
  const done1 = entry({ id: 'a', status: 'done' });
  const part2 = entry({ id: 'b', status: 'partial' });
  const run3 = entry({ id: 'c', status: 'running', finishedAt: null });
  it.each<[string, RunEntry[], boolean, string | null]>([
    ['none drawn: the reference alone', [], true, null],
    ['a figure drawing partial runs: the newest, cancelled', [done1, part2], true, 'b'],
    ['a figure drawing partial runs: the newest, streaming', [done1, part2, run3], true, 'c'],
    ['a figure drawing complete runs only: the newest complete one', [done1, part2, run3], false, 'a'],
    ['complete runs only, none complete', [part2], false, null],
  ])('%s', (_, drawn, partials, id) => {
    expect(topEntry(drawn, partials)?.id ?? null).toBe(id);
    expect(drawnRun('grid', drawn, partials, 500)?.entry.id ?? null).toBe(id);
  });
});

describe('drawnState', () => {
  it.each<[RunEntry['status'], string | null, string]>([
    ['done', '2026-12-05T08:01:00.000Z', 'done'],
    ['running', null, 'running'],
    ['partial', '2026-12-05T08:01:00.000Z', 'cancelled'], // ended (Slot.start: finish) with what it had
    ['partial', null, 'interrupted'], // stored while it ran; its page went away
    ['error', '2026-12-05T08:01:00.000Z', 'failed'],
  ])('%s, finished %s → %s', (status, finishedAt, want) => expect(drawnState({ status, finishedAt })).toBe(want));
});

describe('reachedSteps: how far a run got', () => {
  it.each<[string, Parameters<typeof reachedSteps>, ReturnType<typeof reachedSteps>]>([
    ['a grid cut at 137 of 1000', ['grid', cut(137), {}], { step: 137, steps: 1000 }],
    ['its config without steps: the entry’s', ['grid', { runs: cut(20).runs, config: {} }, { steps: 60 }], { step: 20, steps: 60 }],
    ['neither: the engine’s default', ['grid', { runs: cut(20).runs }, {}, GRID_DEFAULTS.steps], { step: 20, steps: 500 }],
    ['no default either: the step alone', ['grid', { runs: cut(20).runs }, {}], { step: 20, steps: null }],
    ['nothing computed yet', ['grid', { runs: [] }, {}, 500], { step: 0, steps: 500 }],
    ['another slot’s document has no steps', ['probe', { placements: {} }, {}], null],
    ['no document', ['grid', null, {}], null],
  ])('%s', (_, args, want) => expect(reachedSteps(...args)).toEqual(want));
});

describe('the words: caption, badge, legend (en, zh)', () => {
  const at = (state: RunEntry['status'], finishedAt: string | null, n = 137) =>
    describeRun('grid', entry({ status: state, finishedAt, fraction: n / 1000, doc: cut(n) }));
  it.each<['en' | 'zh', ReturnType<typeof at>, string, string, string]>([
    ['en', at('running', null, 40), 'live and still running, now at step 40 of 1000', 'running · step 40 of 1000', 'Computing in your browser'],
    ['en', at('partial', 'x'), 'cancelled at step 137 of 1000 and drawn up to there', 'cancelled · step 137 of 1000', 'Computed in your browser'],
    [
      'en',
      at('partial', null),
      'unfinished: its page was closed at step 137 of 1000, drawn up to there',
      'unfinished · step 137 of 1000',
      'Computed in your browser',
    ],
    ['en', at('error', 'x'), 'failed at step 137 of 1000 and drawn up to there', 'failed · step 137 of 1000', 'Computed in your browser'],
    ['zh', at('running', null, 40), '它正在运行，现已到第 40 步（共 1000 步）', '运行中 · 第 40 步（共 1000 步）', '正在你的浏览器里计算'],
    ['zh', at('partial', 'x'), '它在第 137 步（共 1000 步）被取消，图中只画到那里', '已取消 · 第 137 步（共 1000 步）', '在你的浏览器里算出'],
  ])('%s: %j', (lang, d, words, tag, lead) => {
    expect(stateWords(d, t(lang))).toBe(words);
    expect(stateTag(d, t(lang))).toBe(tag);
    expect(badgeLead(d, t(lang))).toBe(lead);
  });
  it('a complete run, or none: no words (its headline is said instead)', () => {
    const done = describeRun('grid', entry({}));
    expect([stateWords(done, t('en')), stateTag(done, t('en')), stateWords(null, t('en'))]).toEqual(['', '', '']);
  });
  it('a document without steps says the share it computed', () => {
    const d = describeRun('deepNorm', entry({ slot: 'deepNorm', status: 'partial', fraction: 0.374, doc: { cells: [] } }));
    expect([d.step, d.pct]).toEqual([null, 37]);
    expect(reachedWords(d, t('en'))).toBe('37% of the run');
    expect(reachedWords(d, t('zh'))).toBe('全程的 37%');
  });
  it('every state has its words in both languages', () => {
    for (const lang of ['en', 'zh'] as const)
      for (const s of DRAWN_STATES.filter((x) => x !== 'done')) {
        expect(UI_STRINGS[lang][`runs.state.${s}`]).toContain('{at}');
        expect(UI_STRINGS[lang][`runs.tag.${s}`]).toBeTruthy();
      }
  });
});

describe('the run list’s headline of a grid that stopped before its end', () => {
  it.each<['en' | 'zh', RegExp, RegExp]>([
    ['en', /^final loss Post-LN /, /^loss at step 137 Post-LN /],
    ['zh', /^最终损失 Post-LN /, /^第 137 步的损失 Post-LN /],
  ])('%s: a complete grid’s final loss; an unfinished one’s loss at the step it reached', (lang, done, partial) => {
    expect(headline('grid', grid(), t(lang))).toMatch(done);
    const g = cut(137);
    g.runs = g.runs.map((r) => ({ ...r, status: 'running' as const }));
    expect(headline('grid', g, t(lang))).toMatch(partial);
  });
});

describe('a slot: what its caption and badge read while a run streams, and after it is cancelled', () => {
  const p = (fraction: number): Progress => ({ fraction, elapsedMs: fraction * 1000, etaMs: 100, paused: false });
  it('Figure 4’s slot (partial runs drawn): streaming, then cancelled, the run drawn on top is named in its state', async () => {
    const results = new Results(new LiveRuns(SLOT_NAMES, null));
    const s = results.grid;
    const ref = cut(200, 200);
    s.use(ref);
    // a complete run first: the current result
    await s.start(async () => cut(20, 20), { steps: 20 });
    expect(s.drawnRun?.state).toBe('done');
    const done = s.data;
    // a long run streams its first curves: drawn on top, named live and in progress
    const ac = new AbortController();
    let report: (q: Progress, d?: GridResult) => void = () => {};
    const started = s.start(
      (onP) =>
        new Promise<GridResult>((_, reject) => {
          report = (q, d) => ((s.partial = d ?? null), onP(q, d));
          ac.signal.addEventListener('abort', () => reject(new EngineError('cancelled', 'cancelled')));
        }),
      { steps: 1000 },
    );
    expect(s.drawnRun?.state).toBe('done'); // nothing of it drawn before its first report
    report(p(0.04), cut(40, 1000, [0]));
    expect(s.drawnRun).toMatchObject({ state: 'running', step: 40, steps: 1000 });
    expect(s.drawn).toBe(s.partial);
    expect(results.proseNumbers('en')['toy.seeds']).toBe('1');
    expect(s.data).toBe(done); // the current complete result is unchanged
    report(p(0.137), cut(137, 1000, [0]));
    s.cancel();
    ac.abort();
    await started;
    s.partial = null; // what Results.recompute does once the run ended
    // cancelled: it stays drawn on top, named cancelled at the step it reached
    expect(s.drawnRun).toMatchObject({ state: 'cancelled', step: 137, steps: 1000 });
    expect((s.drawn as GridResult).runs[0].loss).toHaveLength(137);
    expect(s.data).toBe(done);
    expect(stateWords(s.drawnRun, t('en'))).toBe('cancelled at step 137 of 1000 and drawn up to there');
    // the caption's numbers read the drawn run (one seed), not the complete one under it (two)
    expect(results.proseNumbers('en')['toy.seeds']).toBe('1');
    expect(proseNumbers(null, done, 'en')['toy.seeds']).toBe('2');
    // hidden: the complete run is on top again
    results.runs.setHidden(s.drawnRun!.entry.id, true);
    expect(s.drawnRun?.state).toBe('done');
    expect(s.drawn).toBe(done);
  });
  it('a slot whose figure draws complete runs only: a partial entry is never on top', () => {
    const runs = new LiveRuns(['deepNorm'], null);
    const s = new Slot<unknown>('deepNorm', runs);
    const ref = { config: { steps: 500 } };
    s.use(ref);
    const id = runs.begin('deepNorm', {});
    runs.progress(id, 0.5, 10, { config: { steps: 20 } });
    runs.finish(id, { status: 'partial' });
    expect(runs.drawn('deepNorm')).toHaveLength(1);
    expect(s.drawnRun).toBeNull();
    expect(s.drawn).toBe(ref);
  });
});
