// run-length.test.ts — the one rule for a figure's run-length line (lib/run-length.ts): the line, the
// "never" markers and the sentences about them follow the drawn document's own steps, the muted
// reference keeps its own; and the figures that draw such a line by it (fig8, fig13, fig14), with a
// 20-step live run over a longer reference (the e2e check's shrunk setting: tests/e2e/harness.mjs
// E2E_SHRINK).
import { describe, expect, it } from 'vitest';
import { runLengths } from '../../web/src/lib/run-length';
import { escapeDoc, escapeRowsView } from '../../web/src/figures/fig13/transform';
import { insuranceChart, insuranceView } from '../../web/src/figures/fig14/transform';
import { escapeChart, escapeView } from '../../web/src/figures/fig8/transform';
import { phaseDiagram, warmupLength } from './fixtures';

describe('runLengths', () => {
  it.each<[string, number, number | null | undefined, ReturnType<typeof runLengths>]>([
    ['no reference under it', 300, null, { steps: 300, refSteps: null, refLine: false, span: 300 }],
    ['a reference of the same length: one line', 300, 300, { steps: 300, refSteps: 300, refLine: false, span: 300 }],
    ['a shorter run over the reference: its own line, the reference’s muted', 20, 500, { steps: 20, refSteps: 500, refLine: true, span: 500 }],
    ['a longer run over the reference', 800, 500, { steps: 800, refSteps: 500, refLine: true, span: 800 }],
    ['a reference without a length', 20, 0, { steps: 20, refSteps: null, refLine: false, span: 20 }],
    ['a drawn document without a length', NaN, 500, { steps: 0, refSteps: 500, refLine: true, span: 500 }],
    ['undefined reference', 20, undefined, { steps: 20, refSteps: null, refLine: false, span: 20 }],
  ])('%s', (_, steps, ref, want) => expect(runLengths(steps, ref)).toEqual(want));
});

describe('a 20-step live run over a 300-step reference', () => {
  it('fig13: the line, its note and the live “never” column at step 20; the reference’s never-markers past its own 300', () => {
    const ref = escapeDoc(phaseDiagram());
    const live = phaseDiagram(['post', 'pre', 'deepnorm'], { steps: 20 });
    // 20 steps: nothing leaves the plateau
    for (const c of live.cells) c.runs = c.runs.map((r) => ({ ...r, escape_step: null, outcome: 'plateau' as const, stop_step: 20 }));
    const v = escapeRowsView(escapeDoc(live), ref);
    expect(v.steps).toBe(20);
    expect(v.lengths).toEqual({ steps: 20, refSteps: 300, refLine: true, span: 300 });
    expect(v.neverX).toBeCloseTo(21.6);
    expect(v.refNeverX).toBeCloseTo(324);
    expect(v.xDomain[1]).toBeCloseTo(300 * 1.14); // the axis holds the muted reference too
    const live0 = v.panels[0].rows.flatMap((r) => r.seeds);
    expect(live0.every((q) => q.never && q.x === v.neverX)).toBe(true);
    // the reference's stuck seeds (Post-LN at 8 layers has none at the first depth: DeepNorm's none either) sit past 300
    const refNever = v.panels[0].ref.flatMap((r) => r.seeds).filter((q) => q.never);
    expect(refNever.every((q) => q.x === v.refNeverX)).toBe(true);
    // without a reference: one line, the run's own
    const alone = escapeRowsView(escapeDoc(live), null);
    expect([alone.steps, alone.lengths.refLine, alone.refNeverX, alone.xDomain[1]]).toEqual([20, false, null, 20 * 1.14]);
  });
  it('fig14: the “never” line is the live run’s length; the axis holds the reference’s', () => {
    const ref = insuranceChart(phaseDiagram(['pre']), 'pre');
    const c = insuranceChart(phaseDiagram(['pre'], { steps: 20 }), 'pre');
    const v = insuranceView(c, ref);
    expect(v.c.steps).toBe(20);
    expect(v.escapeDomain[1]).toBeCloseTo(300 * 1.08);
  });
  it('fig8: the live “never” line at its own length, the reference’s muted markers at its own', () => {
    const d = warmupLength();
    d.config = { ...d.config, steps: 20 };
    const v = escapeView(escapeChart(d, 'lo'), escapeChart(warmupLength(), 'lo'));
    expect(v.refSteps).toBe(400);
    expect(v.yDomain[1]).toBeCloseTo(400 * 1.08);
    const same = escapeView(escapeChart(warmupLength(), 'lo'), escapeChart(warmupLength(), 'lo'));
    expect(same.refSteps).toBe(400);
  });
});
