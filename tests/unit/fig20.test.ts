// fig20.test.ts — the angular-update figure's pure parts (fig20/transform.ts, fig20/downloads.ts) on a
// table of small documents: a panel per warm-up, per placement the seed mean of the mean over groups in
// degrees, its relative update, the log axes under a reference, the table's steps and the long CSV
// table; and the verdict sentence bound from the slot's declaration (prose-numbers.ts).
import { describe, expect, it } from 'vitest';
import { auAxes, auChart, tableSteps, valueAt } from '../../web/src/figures/fig20/transform';
import { fig20Json, fig20Table } from '../../web/src/figures/fig20/downloads';
import { proseNumbers, PROSE_NUMBER_KEYS } from '../../web/src/lib/prose-numbers';
import { angularUpdate as fixture } from './fixtures';
import { angularUpdate as verdictOf, summarizeGroups } from '../../web/src/experiments/angular-update';
import reference from '../../public/data/exp/angular-update.json';
import summary from '../../public/data/exp/angular-update.summary.json';

const DEG = 180 / Math.PI;

describe('fig20 transform', () => {
  it('a panel per warm-up (none first), a line per placement in registry order, in degrees', () => {
    const c = auChart(fixture());
    expect(c.panels.map((p) => p.key)).toEqual(['w0', 'w2']);
    expect(c.panels[0].series.map((s) => s.placement)).toEqual(['post', 'pre', 'deepnorm']);
    expect(c.steps).toBe(4);
    const post0 = c.panels[0].series[0];
    expect(post0.seeds).toBe(2);
    // seeds 0 and 1 scale the fixture's angles by 1 and 1.01
    expect(post0.angle[0].y).toBeCloseTo(0.05 * 1.005 * DEG, 9);
    expect(post0.relative[1]).toBeCloseTo(1.1 * 0.04 * 1.005, 9);
    expect(valueAt(post0, 2)).toEqual({ angle: post0.angle[1].y, relative: post0.relative[1] });
    expect(valueAt(post0, 9).angle).toBeUndefined();
    // log domain around every angle drawn
    const ys = c.panels.flatMap((p) => p.series.flatMap((s) => s.angle.map((q) => q.y)));
    expect(c.yDomain[0]).toBeCloseTo(Math.min(...ys) / 1.3, 12);
    expect(c.yDomain[1]).toBeCloseTo(Math.max(...ys) * 1.3, 12);
  });

  it('an angle of 0 is left out of its line (log axis); no runs draw nothing', () => {
    const d = fixture({ post: [0, 0.01, 0.01, 0.01], pre: [0.05, 0.02, 0.02, 0.02], deepnorm: [0.05, 0.02, 0.02, 0.02] });
    expect(Number.isNaN(auChart(d).panels[0].series[0].angle[0].y)).toBe(true);
    expect(auChart(null)).toMatchObject({ steps: 0, panels: [] });
    expect(auChart({ ...d, runs: [] }).panels).toEqual([]);
  });

  it('a run that stopped shortens its line to the steps every seed measured', () => {
    const d = fixture();
    d.runs[0] = { ...d.runs[0], status: 'nan', angle: d.runs[0].angle.map((r) => r.slice(0, 2)), relative: d.runs[0].relative.map((r) => r.slice(0, 2)) };
    expect(auChart(d).panels[0].series[0].angle).toHaveLength(2);
  });

  it('axes hold the live chart and the reference under it, by warm-up', () => {
    const live = auChart(fixture({ post: [0.5, 0.5, 0.5], pre: [0.5, 0.5, 0.5], deepnorm: [0.5, 0.5, 0.5] }));
    const ref = auChart(fixture());
    const a = auAxes(live, ref);
    expect(a.xDomain).toEqual([1, 4]);
    expect(a.yDomain[0]).toBeCloseTo(ref.yDomain[0], 12);
    expect(a.yDomain[1]).toBeCloseTo(live.yDomain[1], 12);
    expect(a.refPanel('w2')?.warmup).toBe(2);
    expect(auAxes(ref, ref).refPanel('w0')).toBeUndefined(); // the reference drawn alone has nothing under it
  });

  it.each([
    [4, [1, 2, 3, 4]],
    [10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
    [100, [1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]],
    [25, [1, 3, 6, 9, 12, 15, 18, 21, 24, 25]],
    [0, []],
  ])('the table shows steps %i → %j', (n, want) => expect(tableSteps(n)).toEqual(want));
});

describe('fig20 from the summary the page loads (angular-update.summary.json)', () => {
  type Doc = Parameters<typeof auChart>[0];
  it('draws, reads and judges the same numbers to the bit as the whole document', () => {
    const [full, sum] = [reference as unknown as Doc, summary as unknown as Doc];
    expect(auChart(sum)).toEqual(auChart(full));
    expect(verdictOf(sum!)).toEqual(verdictOf(full!));
    expect(proseNumbers(null, null, 'en', { angularUpdate: sum })).toEqual(proseNumbers(null, null, 'en', { angularUpdate: full }));
  });
  it('holds one row per run: the mean over the groups it names', () => {
    const s = summarizeGroups(fixture());
    expect(s.groups).toEqual(['mean']);
    expect(s.groups_meaned).toEqual(fixture().groups);
    expect(s.runs.every((r) => r.angle.length === 1 && r.relative.length === 1)).toBe(true);
    expect(auChart(s)).toEqual(auChart(fixture()));
  });
});

describe('fig20 downloads', () => {
  it('a row per run, group and step, with the angle in radians and degrees and the relative update', () => {
    const d = fixture();
    const t = fig20Table(d);
    expect(t.columns).toEqual(['placement', 'warmup', 'seed', 'group', 'step', 'angle_rad', 'angle_deg', 'relative']);
    expect(t.rows).toHaveLength(12 * 4 * 4); // 12 runs × 4 groups × 4 steps
    expect(t.rows[0].slice(0, 6)).toEqual(['post', 0, 0, 'layer1.attn', 1, 0.05]);
    expect(t.rows[0][6]).toBeCloseTo(0.05 * DEG, 12);
    expect(t.rows[0][7]).toBeCloseTo(1.1 * 0.05, 12);
    expect(t.rows[5].slice(3, 5)).toEqual(['layer1.ffn', 2]);
    expect(fig20Table(null).rows).toEqual([]);
    const j = fig20Json(d);
    expect(j.losses).toHaveLength(12);
    expect(j.losses[0]).toEqual({ placement: 'post', warmup: 0, seed: 0, status: 'ok', loss: [5.5, 5.4, 5.3, 5.2] });
    expect(fig20Json(null)).toEqual({ config: null, engine: null, losses: [] });
  });
});

describe('fig20 verdict sentence', () => {
  it('is bound as {{exp.angularUpdate.verdict}} from the declaration, in both languages, angles with 3 significant digits', () => {
    expect(PROSE_NUMBER_KEYS).toContain('exp.angularUpdate.verdict');
    // the older slots keep their own keys: no second binding of theirs
    expect(PROSE_NUMBER_KEYS.filter((k) => /^exp\.[a-z]+[A-Z]\w*\.verdict$/.test(k))).toEqual(['exp.angularUpdate.verdict']);
    const doc = { ...fixture(), config: { ...fixture().config, beta1: 0.5 } };
    const en = proseNumbers(null, null, 'en', { angularUpdate: doc })['exp.angularUpdate.verdict'];
    const zh = proseNumbers(null, null, 'zh', { angularUpdate: doc })['exp.angularUpdate.verdict'];
    expect(en).toMatch(/^Verdict: confirmed at this toy’s size\./);
    expect(en).toContain(`${+(0.0425 * 1.005 * DEG).toPrecision(3)}°`);
    expect(zh).toMatch(/^结论：在这个玩具模型的规模上成立。/);
    expect(proseNumbers(null, null, 'en', {})['exp.angularUpdate.verdict']).toBe('—');
    const untested = proseNumbers(null, null, 'en', { angularUpdate: fixture() })['exp.angularUpdate.verdict'];
    expect(untested).toMatch(/^Verdict: too small to test the claim\. .*at least 20 steps \(here 4\)/);
  });
});
