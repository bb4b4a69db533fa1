// slot-budget.test.ts — a run a link asks for (lib/result-slots.svelte.ts Slot.start with the
// link's budget): offered without starting when this device's known speed says it is too long,
// stopped and offered when its own ETA says so after 3 s, run to the end when it fits; and the
// link's runs share the one budget.
import { describe, expect, it } from 'vitest';
import { EngineError, type Progress } from '../../web/src/engine/client';
import { LINK_BUDGET_MS, LinkBudget, Slot } from '../../web/src/lib/result-slots.svelte';
import { speed } from '../../web/src/lib/speed.svelte';

const p = (elapsedMs: number, etaMs: number | null, fraction = 0.1): Progress => ({ fraction, elapsedMs, etaMs, paused: false });

/** A fake engine job: reports `reports` in order, then resolves (or rejects when aborted). */
const job = (reports: Progress[]) => (onP: (q: Progress) => void, signal: AbortSignal) =>
  new Promise<{ config: object }>((resolve, reject) => {
    for (const r of reports) {
      onP(r);
      if (signal.aborted) return reject(new EngineError('cancelled', 'cancelled'));
    }
    resolve({ config: {} });
  });

describe('a run a link asks for', () => {
  it('is offered without starting when the known speed says it is longer than the budget', async () => {
    speed.record = { engine: 'cpu-mt/x/2', points: [[1, 1e6, 3]] };
    const s = new Slot<{ config: object }>();
    let started = false;
    await s.start(() => ((started = true), Promise.resolve({ config: {} })), {}, { work: { flops: 1e11, size: 1 }, budget: new LinkBudget() });
    expect(started).toBe(false);
    expect(s.run.phase).toBe('offered');
    expect(s.offerMs).toBe(1e5);
    speed.record = null;
  });
  it('with no speed known yet (a first visit), measures it first, then offers a long run without starting it', async () => {
    speed.record = null;
    const s = new Slot<{ config: object }>();
    let started = false;
    let calibrated = 0;
    const calibrate = async () => {
      calibrated++;
      speed.record = { engine: 'cpu-mt/x/2', points: [[1, 1e6, 3]] };
    };
    await s.start(() => ((started = true), Promise.resolve({ config: {} })), {}, { work: { flops: 1e11, size: 1 }, budget: new LinkBudget(), calibrate });
    expect(calibrated).toBe(1);
    expect(started).toBe(false);
    expect(s.run.phase).toBe('offered');
    speed.record = null;
  });
  it('a short one is started once the speed is known; a calibration that fails falls back to the 3 s rule', async () => {
    const s = new Slot<{ config: object }>();
    await s.start(
      job([p(500, 100)]),
      {},
      { work: { flops: 1e6, size: 1 }, budget: new LinkBudget(), calibrate: async () => void (speed.record = { engine: 'cpu-mt/x/2', points: [[1, 1e6, 3]] }) },
    );
    expect(s.run.phase).toBe('done');
    speed.record = null;
    const t = new Slot<{ config: object }>();
    await t.start(
      job([p(1000, 60000), p(3100, 20000)]),
      {},
      { work: { flops: 1e11, size: 1 }, budget: new LinkBudget(), calibrate: () => Promise.reject(new Error('no engine')) },
    );
    expect(t.run.phase).toBe('offered');
  });
  it('is stopped and offered when, after 3 s, its own ETA goes past the budget', async () => {
    const s = new Slot<{ config: object }>();
    await s.start(job([p(1000, 60000), p(2000, 60000), p(3100, 20000), p(4000, 1000)]), {}, { budget: new LinkBudget() });
    expect(s.run.phase).toBe('offered');
    expect(s.offerMs).toBe(23100);
    expect(s.data).toBeNull();
  });
  it('runs to the end when it fits (an early, overshooting ETA does not stop it)', async () => {
    const s = new Slot<{ config: object }>();
    await s.start(job([p(1000, 60000), p(3100, 2000)]), {}, { budget: new LinkBudget() });
    expect(s.run.phase).toBe('done');
    expect(s.offerMs).toBeNull();
  });
  it('shares the link’s budget with the link’s other runs: each takes its estimate, one that does not fit what is left is offered', async () => {
    speed.record = { engine: 'cpu-mt/x/2', points: [[1, 1e6, 3]] };
    const budget = new LinkBudget();
    const started: string[] = [];
    const slot = async (name: string, ms: number) => {
      const s = new Slot<{ config: object }>();
      await s.start(job([p(500, 100, 1)]), {}, { work: { flops: ms * 1e6, size: 1 }, budget });
      if (s.run.phase === 'done') started.push(name);
      return s;
    };
    await slot('a', 6000);
    expect(budget.leftMs).toBe(LINK_BUDGET_MS - 6000);
    const b = await slot('b', 6000);
    expect(b.run.phase).toBe('offered');
    expect(b.offerMs).toBe(6000);
    expect(b.offerWhy).toBe('shared');
    await slot('c', 3000);
    const d = await slot('d', 20000);
    expect(d.offerWhy).toBe('long');
    expect(started).toEqual(['a', 'c']);
    expect(budget.leftMs).toBe(LINK_BUDGET_MS - 9000);
    speed.record = null;
  });
  it('a run whose speed is not known takes what is left, and the next is offered', async () => {
    speed.record = null;
    const budget = new LinkBudget();
    const s = new Slot<{ config: object }>();
    await s.start(job([p(500, 100, 1)]), {}, { budget, calibrate: () => Promise.reject(new Error('no engine')) });
    expect(s.run.phase).toBe('done');
    expect(budget.leftMs).toBe(0);
    const t = new Slot<{ config: object }>();
    let started = false;
    await t.start(() => ((started = true), Promise.resolve({ config: {} })), {}, { budget });
    expect(started).toBe(false);
    expect(t.run.phase).toBe('offered');
    expect(t.offerMs).toBeNull();
    expect(t.offerWhy).toBe('shared');
  });
  it('a reader’s own run has no budget', async () => {
    const s = new Slot<{ config: object }>();
    await s.start(job([p(3100, 900000)]), {});
    expect(s.run.phase).toBe('done');
  });
});
