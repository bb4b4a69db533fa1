// calibrate.test.ts — the one short calibration that gives Recompute its first estimate
// (lib/calibrate.ts): the speed between the first and last progress report, learned once per
// visit, for the engine that would run the reader's job, and only when none is known.
import { beforeEach, describe, expect, it } from 'vitest';
import { calibrateOnce, calibrationConfig, engineKey, rateFrom, resetCalibration } from '../../web/src/lib/calibrate';
import { gridFlops } from '../../web/src/lib/cost';
import { speed } from '../../web/src/lib/speed.svelte';
import type { EngineReady, Progress } from '../../web/src/engine/client';

const p = (fraction: number, elapsedMs: number): Progress => ({ fraction, elapsedMs, etaMs: null, paused: false });
const info = async () => ({ backend: 'cpu-mt', flavour: 'wasm-mt', threads: 2 }) as EngineReady;

describe('rateFrom', () => {
  it.each([
    [[p(0.1, 600), p(0.5, 1000), p(1, 1500)], 1000, (0.9 * 1000) / 900], // start-up (the first 600 ms) left out
    [[p(1, 2000)], 1000, 0.5],
    [[], 1000, null],
    [[p(0, 100)], 1000, null],
  ])('%j of %d FLOPs → %s FLOP/ms', (reports, flops, want) => {
    const r = rateFrom(reports, flops);
    if (want == null) expect(r).toBeNull();
    else expect(r).toBeCloseTo(want, 9);
  });
});

describe('calibrateOnce', () => {
  beforeEach(() => {
    resetCalibration();
    speed.record = null;
  });
  it('runs the calibration grid once and learns its speed for this engine', async () => {
    const runs: object[] = [];
    const run = async (c: object, onP: (q: Progress) => void) => {
      runs.push(c);
      onP(p(0.2, 500));
      onP(p(1, 1300));
    };
    expect(await calibrateOnce(run, info)).toBe(true);
    expect(await calibrateOnce(run, info)).toBe(true); // the same promise: no second run
    expect(runs).toEqual([calibrationConfig(2)]);
    expect(speed.record?.engine).toBe('cpu-mt/wasm-mt/2');
    expect(speed.record?.flopsPerMs).toBeCloseTo((0.8 * gridFlops(calibrationConfig(2))) / 800, 6);
  });
  it('runs one run per thread, within 2…16', () => {
    const runs = (t: number) => { const c = calibrationConfig(t); return c.placements.length * c.seeds.length; };
    expect([1, 2, 3, 8, 64].map(runs)).toEqual([2, 2, 4, 8, 16]);
  });
  it('does nothing when this engine’s speed is known', async () => {
    speed.record = { engine: engineKey(await info()), flopsPerMs: 5, n: 3 };
    let ran = false;
    expect(await calibrateOnce(async () => void (ran = true), info)).toBe(false);
    expect(ran).toBe(false);
  });
  it('a failing engine leaves no speed and no error', async () => {
    expect(await calibrateOnce(() => Promise.reject(new Error('no engine')), info)).toBe(false);
    expect(speed.record).toBeNull();
  });
});
