// fig19.test.ts — the real-text figure's pure parts (fig19/transform.ts, fig19/downloads.ts), on a
// table of small documents: panels per language, seed means over the runs that ran to the end, the
// plateau line per language, values at a step, the axes under a reference, the long CSV table.
import { describe, expect, it } from 'vitest';
import { rtAxes, rtChart, trailingMean, valueAt } from '../../web/src/figures/fig19/transform';
import { meanCurve } from '../../web/src/engine/documents';
import { fig19Json, fig19Table } from '../../web/src/figures/fig19/downloads';
import type { RealTextResult } from '../../web/src/experiments/real-text';

const run = (lang: string, placement: string, warmup: number, seed: number, loss: number[], val: number[], status = 'ok') => ({
  lang,
  placement,
  warmup,
  seed,
  status,
  escape_step: null,
  loss,
  val_step: val.map((_, i) => 2 * (i + 1)),
  val_loss: val,
});
const doc = (runs: ReturnType<typeof run>[]) =>
  ({
    config: { steps: 4 },
    engine: { version: '0', build: 'native', threads: 1 },
    texts: [
      { lang: 'en', unigram_entropy: 3, parts: [] },
      { lang: 'zh', unigram_entropy: 4, parts: [] },
    ],
    uniform_loss: Math.log(256),
    runs,
    groups: [{ lang: 'en', placement: 'post', warmup: 0, seeds_ok: 2, escape_step: 3, final_val: 2.5 }],
  }) as unknown as RealTextResult;

describe('fig19 transform', () => {
  it.each([
    [[], []],
    [[[1, 2, 3]], [1, 2, 3]],
    [
      [
        [1, 2, 3],
        [3, 4],
      ],
      [2, 3],
    ],
  ])('seedMean %j → %j', (curves, mean) => expect(meanCurve(curves)).toEqual(mean));

  it.each([
    [[], 2, []],
    [[4, 2, 6, 0], 2, [4, 3, 4, 3]],
    [[1, 2, 3], 10, [1, 1.5, 2]],
  ])('trailingMean %j over %i → %j', (ys, w, out) => expect(trailingMean(ys, w)).toEqual(out));

  const d = doc([
    run('en', 'pre', 0, 0, [5, 4, 3, 2], [3.5, 2.5]),
    run('en', 'post', 0, 0, [5, 5, 4, 3], [4, 3]),
    run('en', 'post', 0, 1, [5, 3, 2, 1], [2, 2]),
    run('en', 'post', 120, 0, [9, 9], [], 'diverged'), // a stopped run: left out of the means
    run('zh', 'post', 0, 0, [6, 5, 5, 5], [5, 5]),
  ]);
  const c = rtChart(d);
  it('one panel per language, its plateau the text’s unigram entropy; series in registry order', () => {
    expect(c.panels.map((p) => [p.lang, p.plateau])).toEqual([
      ['en', 3],
      ['zh', 4],
    ]);
    expect(c.panels[0].series.map((s) => s.key)).toEqual(['en-post-0', 'en-pre-0']);
    expect(c.steps).toBe(4);
    expect(c.warmups).toEqual([0, 120]);
  });
  it('seed means of the training (its trailing 10-step mean) and validation losses, at their steps; the group’s escape step', () => {
    const s = c.panels[0].series[0];
    expect(s.train.map((p) => p.y)).toEqual([5, 4.5, 4, 3.5]); // of the seed mean 5, 4, 3, 2
    expect(s.val).toEqual([
      { x: 2, y: 3 },
      { x: 4, y: 2.5 },
    ]);
    expect(s.escape).toBe(3);
    expect(valueAt(s, 2)).toEqual({ train: 4.5, val: 3 });
    expect(valueAt(s, 3)).toEqual({ train: 4, val: undefined });
  });
  it('the y range holds every loss and plateau; no document: no panels', () => {
    expect(c.yDomain[0]).toBeLessThanOrEqual(2.5); // the lowest point: Pre-LN's held-out loss at step 4
    expect(c.yDomain[1]).toBeGreaterThanOrEqual(6);
    expect(rtChart(null).panels).toEqual([]);
  });
  it('the axes span a reference drawn under a live run, whose panels are found by language', () => {
    const live = rtChart(doc([run('en', 'post', 0, 0, [5, 4], [4])]));
    const a = rtAxes(live, c);
    expect(a.xDomain).toEqual([1, 4]);
    expect(a.refPanel('zh')?.lang).toBe('zh');
    expect(rtAxes(c, null).refPanel('en')).toBeUndefined();
  });
});

describe('fig19 downloads', () => {
  it('one row per run and step, the validation loss where measured', () => {
    const t = fig19Table(doc([run('en', 'post', 0, 1, [5, 4, 3], [4])]));
    expect(t.columns).toEqual(['lang', 'placement', 'warmup', 'seed', 'step', 'train_loss', 'val_loss']);
    expect(t.rows).toEqual([
      ['en', 'post', 0, 1, 1, 5, null],
      ['en', 'post', 0, 1, 2, 4, 4],
      ['en', 'post', 0, 1, 3, 3, null],
    ]);
    expect(fig19Table(null).rows).toEqual([]);
  });
  it('the JSON carries the texts, the groups and each run’s losses', () => {
    const j = fig19Json(doc([run('en', 'post', 0, 1, [5], [4])]));
    expect(j.texts.map((x) => x.lang)).toEqual(['en', 'zh']);
    expect(j.groups[0].final_val).toBe(2.5);
    expect(j.runs[0]).toMatchObject({ lang: 'en', train_loss: [5], val_loss: [4] });
  });
});
