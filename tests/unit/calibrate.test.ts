// calibrate.test.ts — the one short calibration that gives Recompute its first estimate
// (lib/calibrate.ts): each grid timed between its first and last progress report, the FLOP rate at
// each product size read log–log between them, learned once per visit for the engine
// that would run the reader's job, and only when none is known.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  calibrateAuto,
  calibrateOnce,
  calibrationConfigs,
  calibrationWarmup,
  engineKey,
  msPerFraction,
  resetCalibration,
  startCost,
} from '../../web/src/lib/calibrate';
import type { ReaderGate } from '../../web/src/lib/reader-gate';
import { gridWork } from '../../web/src/lib/cost';
import { rateAt, speed } from '../../web/src/lib/speed.svelte';
import type { EngineReady, Progress } from '../../web/src/engine/client';

const p = (fraction: number, elapsedMs: number): Progress => ({ fraction, elapsedMs, etaMs: null, paused: false });
const info = async () => ({ backend: 'cpu-mt', flavour: 'wasm-mt', threads: 2 }) as EngineReady;

describe('msPerFraction', () => {
  it.each([
    [[p(0.1, 600), p(0.5, 1000), p(1, 1500)], 1000], // start-up (the first 600 ms) left out: (1000 + 1000) / 2
    [[p(0.1, 600), p(0.3, 800), p(0.5, 1000), p(0.6, 2000), p(0.8, 2200)], 1000], // a slowed chunk does not count
    [[p(1, 2000)], 2000],
    [[], null],
    [[p(0, 100)], null],
  ])('%j → %s ms for the whole run', (reports, want) => {
    const r = msPerFraction(reports);
    if (want == null) expect(r).toBeNull();
    else expect(r).toBeCloseTo(want, 9);
  });
});

describe('calibrateOnce', () => {
  beforeEach(() => {
    resetCalibration();
    speed.record = null;
  });
  it('times the three calibration grids once and keeps the rate at each size for this engine', async () => {
    const rate = (size: number) => 1e4 * Math.log(size); // a device faster on bigger products
    const runs: object[] = [];
    const run = async (c: object, onP: (q: Progress) => void) => {
      runs.push(c);
      const w = gridWork(c as never);
      const total = w.flops / rate(w.size);
      onP(p(0.2, 300 + 0.2 * total)); // 300 ms of start-up before the first report
      onP(p(1, 300 + total));
    };
    expect(await calibrateOnce(run, info)).toBe(true);
    expect(await calibrateOnce(run, info)).toBe(true); // the same promise: no second run
    expect(runs).toEqual([calibrationWarmup(calibrationConfigs(2)), ...calibrationConfigs(2)]); // an untimed warm-up first
    expect(speed.record?.engine).toBe('cpu-mt/wasm-mt/2');
    const sizes = calibrationConfigs(2).map((c) => gridWork(c).size);
    expect(sizes).toEqual([16 * 128, 64 * 128, 512 * 128]);
    for (const s of sizes) expect(rateAt(speed.record!, s)).toBeCloseTo(rate(s), 3);
  });
  it('one run per thread, within 2…16', () => {
    const runs = (t: number) => {
      const c = calibrationConfigs(t)[0];
      return c.placements.length * c.seeds.length;
    };
    expect([1, 2, 3, 8, 64].map(runs)).toEqual([2, 2, 4, 8, 16]);
  });
  it('does nothing when this engine’s speed is known', async () => {
    speed.record = { engine: engineKey(await info()), points: [[1, 5, 3]], startMs: 80 };
    let ran = false;
    expect(await calibrateOnce(async () => void (ran = true), info)).toBe(false);
    expect(ran).toBe(false);
  });
  it('calibrates once more when the known speed has no fixed cost (a record from before it was measured)', async () => {
    speed.record = { engine: engineKey(await info()), points: [[1, 5, 3]] };
    let ran = 0;
    await calibrateOnce(async (_c, onP) => {
      ran++;
      onP(p(1, 100));
    }, info);
    expect(ran).toBe(4);
    expect(speed.record?.startMs).toBeGreaterThanOrEqual(0);
  });
  it('keeps what each job took beyond its arithmetic as the fixed cost of a job, and estimates add it', async () => {
    let clock = 0;
    const extra = [5000, 250, 400, 300]; // the warm-up (not counted); hand-off, building the run, the result's way back
    let i = 0;
    const run = async (c: object, onP: (q: Progress) => void) => {
      const w = gridWork(c as never);
      const total = w.flops / 1e6; // 1e6 FLOP per ms at every size
      onP(p(0.5, 120 + total / 2));
      onP(p(1, 120 + total));
      clock += total + extra[i++];
    };
    expect(await calibrateOnce(run, info, () => clock)).toBe(true);
    expect(speed.record?.startMs).toBeCloseTo(300, 6); // the median of 250, 400, 300
    expect(speed.estimateMs({ flops: 5e8, size: 512 * 128 })).toBeCloseTo(300 + 500, 6);
    expect(speed.estimateMs({ flops: 0, size: 512 * 128 })).toBeCloseTo(300, 6);
  });
  it('a failing engine leaves no speed and no error', async () => {
    expect(await calibrateOnce(() => Promise.reject(new Error('no engine')), info)).toBe(false);
    expect(speed.record).toBeNull();
  });
});

/** A gate the test drives: `pause()` ends the wait for a pause, `input()` is the reader's input. */
function testGate() {
  let waiting: (() => void)[] = [];
  const listeners = new Set<() => void>();
  const gate: ReaderGate = {
    quiet: () => new Promise<void>((r) => waiting.push(r)),
    onInput(f) {
      listeners.add(f);
      return () => void listeners.delete(f);
    },
  };
  return {
    gate,
    waiters: () => waiting.length,
    pause() {
      const w = waiting;
      waiting = [];
      for (const r of w) r();
    },
    input: () => [...listeners].forEach((f) => f()),
  };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('calibrateOnce started by the page: it gives way to the reader', () => {
  beforeEach(() => {
    resetCalibration();
    speed.record = null;
  });
  /** a run that reports at once and ends when `release()` is called, or rejects when aborted */
  function heldRuns() {
    const started: { c: object; signal?: AbortSignal }[] = [];
    let release: (() => void) | null = null;
    const run = (c: object, onP: (q: Progress) => void, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        started.push({ c, signal });
        signal?.addEventListener('abort', () => reject(new Error('cancelled')));
        release = () => {
          onP(p(0.5, 100));
          onP(p(1, 200));
          resolve();
        };
      });
    return { run, started, release: async () => (release?.(), await tick()) };
  }
  it('each grid waits for a pause; an input stops the grid under way, which runs again at the next pause', async () => {
    const g = testGate();
    const r = heldRuns();
    const done = calibrateOnce(r.run, info, undefined, g.gate);
    await tick();
    expect(r.started.length).toBe(0); // nothing before the reader pauses
    expect(g.waiters()).toBe(1);
    g.pause();
    await tick();
    expect(r.started.length).toBe(1); // the warm-up
    await r.release();
    g.pause();
    await tick();
    expect(r.started.length).toBe(2); // the first timed grid
    g.input();
    await tick();
    expect(r.started[1].signal?.aborted).toBe(true);
    expect(r.started.length).toBe(2); // not again before the next pause
    g.pause();
    await tick();
    expect(r.started.map((s) => s.c)).toEqual([calibrationWarmup(calibrationConfigs(2)), calibrationConfigs(2)[0], calibrationConfigs(2)[0]]);
    for (let i = 0; i < 3; i++) {
      await r.release();
      g.pause();
      await tick();
    }
    expect(await done).toBe(true);
    expect(speed.record?.engine).toBe('cpu-mt/wasm-mt/2');
  });
  it('once someone waits for the speed it runs on: no wait for a pause, no stop at an input', async () => {
    const g = testGate();
    const r = heldRuns();
    const auto = calibrateOnce(r.run, info, undefined, g.gate);
    await tick();
    expect(r.started.length).toBe(0);
    const asked = calibrateAuto(r.run, info); // Recompute pressed, or a link's run
    await tick();
    await tick();
    expect(r.started.length).toBe(1);
    g.input();
    await tick();
    expect(r.started[0].signal?.aborted).toBe(false);
    for (let i = 0; i < 4; i++) await r.release();
    expect(await asked).toBe(true);
    expect(await auto).toBe(true);
    expect(r.started.length).toBe(4); // the warm-up and three grids, each once
  });
  it('an engine error is not taken for the reader: the calibration ends without a speed', async () => {
    const g = testGate();
    const done = calibrateOnce(() => Promise.reject(new Error('no engine')), info, undefined, g.gate);
    await tick();
    g.pause();
    expect(await done).toBe(false);
    expect(speed.record).toBeNull();
  });
});

describe('startCost', () => {
  it.each([
    [
      [
        [1300, 1000],
        [900, 500],
        [2000, 1800],
      ],
      300,
    ],
    [
      [
        [1300, 1000],
        [900, 500],
      ],
      350,
    ],
    [[[400, 500]], 0], // a job faster than its own chunks' sum (clock granularity): no negative cost
    [[], null],
  ])('%j → %s ms', (jobs, want) => expect(startCost(jobs as [number, number][])).toBe(want));
});
