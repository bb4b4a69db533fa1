// speed.test.ts — lib/speed.svelte.ts: the device's FLOP rate as measured points by product size,
// what one live run teaches (its own size fully, neighbours less, sizes 8× away barely), the
// estimate read from it, the stored record (checked, the first format carried over), and the page's
// Speed (one run is one measurement however many reports it sends; a job is estimated at the speed
// of the engine that will run it: on a page on WebGPU, a CPU-only job at the CPU build's).
import { afterEach, describe, expect, it } from 'vitest';
import { estimateMs, fromV1, laneFor, learn, parseRecord, rateAt, speed, type SpeedRecord } from '../../web/src/lib/speed.svelte';
import { cpuOnlyRun } from '../../web/src/lib/result-slots.svelte';

const rec = (points: [number, number, number][], startMs?: number): SpeedRecord => ({ engine: 'e', points, ...(startMs != null ? { startMs } : {}) });
// a calibration of this 2-core machine (page bench, 2026-12-03): 1 × 16, 2 × 32 and 8 × 64 tokens × d = 128
const calibrated = rec([
  [2048, 26.7e6, 1],
  [8192, 51.8e6, 1],
  [65536, 77.9e6, 1],
]);

describe('the rate by product size', () => {
  const r = rec([
    [1000, 100, 1],
    [10000, 200, 1],
    [100000, 400, 1],
  ]);
  it.each([
    [500, 100],
    [1000, 100],
    [Math.sqrt(1000 * 10000), Math.sqrt(100 * 200)], // log–log between the points
    [100000, 400],
    [1e7, 400],
  ])('at size %d: %d FLOP/ms', (size, want) => expect(rateAt(r, size)).toBeCloseTo(want, 6));
});

describe('learn: one live run at its own size', () => {
  it.each([
    // [what, record before, measurement (rate, size), rate wanted at each size]
    [
      'no record: the measurement is the speed at every size',
      null,
      [200, 4096],
      [
        [10, 200],
        [4096, 200],
        [1e6, 200],
      ],
    ],
    ['at a calibrated size: the running mean in log rate (half after one measurement)', calibrated, [51.8e6 * 4, 8192], [[8192, 51.8e6 * 2]]],
    ['within √2 of a point: that point takes it', calibrated, [51.8e6 * 4, 10000], [[8192, 51.8e6 * 2]]],
  ])('%s', (_, before, [rate, size], want) => {
    const after = learn(before as SpeedRecord | null, 'e', rate, size)!;
    for (const [s, r] of want) expect(rateAt(after, s) / r).toBeCloseTo(1, 9);
  });

  it.each([
    // a quick look (2 × 32 tokens) 15% faster than the calibration said there, and the opposite:
    // the full grid's estimate (8 × 64 tokens, 8× the size) moves by at most 1%
    ['15% faster', 1.15],
    ['40% slower', 0.6],
    ['3× faster', 3],
  ])('a quick look %s than calibrated barely moves the estimate 8× up in size', (_, factor) => {
    const after = learn(calibrated, 'e', 51.8e6 * factor, 8192)!;
    expect(rateAt(after, 8192) / (51.8e6 * Math.sqrt(factor))).toBeCloseTo(1, 9);
    expect(Math.abs(Math.log(rateAt(after, 65536) / 77.9e6))).toBeLessThan(Math.abs(Math.log(factor)) * 0.02);
    // a neighbour 4× away moves, less than the point itself: between 5% and 20% of the way in log
    const moved = Math.log(rateAt(after, 2048) / 26.7e6) / Math.log(Math.sqrt(factor));
    expect(moved).toBeGreaterThan(0.05);
    expect(moved).toBeLessThan(0.2);
  });

  it('a size with no point near it becomes a point of its own, and the old points stay', () => {
    const after = learn(calibrated, 'e', 60e6, 24576)!; // 4 × 48 × 128, between 8192 and 65536
    expect(after.points.map((p) => p[0])).toEqual([2048, 8192, 24576, 65536]);
    expect(rateAt(after, 24576)).toBeCloseTo(60e6, 0);
    expect(after.points.every((p, i, a) => i === 0 || p[0] > a[i - 1][0])).toBe(true);
  });

  it('the newest measurement at a point weighs 1/(n+1), never below 1/8', () => {
    const r = rec([[1000, 100, 99]]);
    const after = learn(r, 'e', 100 * Math.E, 1000)!;
    expect(Math.log(after.points[0][1] / 100)).toBeCloseTo(1 / 8, 9);
    expect(after.points[0][2]).toBe(100);
    expect(Math.log(learn(rec([[1000, 100, 3]]), 'e', 100 * Math.E, 1000)!.points[0][1] / 100)).toBeCloseTo(1 / 4, 9);
  });

  it('at most 12 points: past that a new size takes over the nearest point', () => {
    let r: SpeedRecord | null = null;
    for (let i = 0; i < 12; i++) r = learn(r, 'e', 100, 1000 * 4 ** i);
    expect(r!.points).toHaveLength(12);
    r = learn(r, 'e', 500, 1000 * 4 ** 5 * 2); // 2× past the sixth point, 2× short of the seventh
    expect(r!.points).toHaveLength(12);
    expect(r!.points.some((p) => p[0] === 1000 * 4 ** 5 * 2 && p[1] === 500)).toBe(true);
    expect(parseRecord(r)).not.toBeNull();
  });

  it('another engine starts over; an unusable measurement changes nothing', () => {
    expect(learn(calibrated, 'webgpu', 7, 100)).toEqual({ engine: 'webgpu', points: [[100, 7, 1]] });
    for (const [rate, size] of [
      [Infinity, 100],
      [0, 100],
      [-1, 100],
      [NaN, 100],
      [100, 0],
      [100, Infinity],
    ]) {
      expect(learn(calibrated, 'e', rate, size)).toBe(calibrated);
    }
    expect(learn(null, 'e', NaN, 100)).toBeNull();
  });
});

describe('estimateMs', () => {
  it('the fixed cost of a job plus the FLOPs at the rate of their size; null without either', () => {
    expect(estimateMs(rec([[100, 1e6, 1]]), { flops: 3e9, size: 100 })).toBe(3000);
    expect(
      estimateMs(
        rec(
          [
            [100, 1e6, 1],
            [1e4, 4e6, 1],
          ],
          250,
        ),
        { flops: 4e9, size: 1e4 },
      ),
    ).toBe(1250);
    expect(estimateMs(null, { flops: 3e9, size: 100 })).toBeNull();
    expect(estimateMs(rec([[100, 1e6, 1]]), null)).toBeNull();
    expect(estimateMs(rec([]), { flops: 1, size: 1 })).toBeNull();
  });
});

describe('the stored record', () => {
  it.each([
    ['a record', calibrated, true],
    ['with a fixed cost', rec([[1, 2, 1]], 30), true],
    ['no points', rec([]), false],
    ['a point of two numbers', { engine: 'e', points: [[1, 2]] }, false],
    [
      'sizes out of order',
      rec([
        [10, 1, 1],
        [5, 1, 1],
      ]),
      false,
    ],
    ['a zero rate', rec([[10, 0, 1]]), false],
    ['a negative fixed cost', rec([[10, 1, 1]], -1), false],
    ['no engine', { points: [[1, 2, 1]] }, false],
    ['a string', 'fast', false],
    ['null', null, false],
  ])('%s: %s', (_, v, ok) => expect(parseRecord(v) != null).toBe(ok));

  it('the first format (a level and the calibration’s curve) carries over as points at that level', () => {
    const v1 = {
      engine: 'e',
      flopsPerMs: 800,
      curve: [
        [10000, 200],
        [1000, 100],
        [100000, 400],
      ],
      n: 7,
      startMs: 40,
    };
    expect(fromV1(v1)).toEqual({
      engine: 'e',
      points: [
        [1000, 200, 1],
        [10000, 400, 1],
        [100000, 800, 1],
      ],
      startMs: 40,
    });
    expect(fromV1({ engine: 'e', flopsPerMs: 800, n: 3 })).toBeNull(); // a level without sizes: calibrate again
    expect(fromV1({ engine: 'e', flopsPerMs: 800, curve: [[1, -2]], n: 1 })).toBeNull();
    expect(fromV1(null)).toBeNull();
  });
});

/** a localStorage over a Map for one test (the describe's afterEach removes it); returns the Map */
const memoryStorage = () => {
  const stored = new Map<string, string>();
  (globalThis as { localStorage?: unknown }).localStorage = {
    getItem: (k: string) => stored.get(k) ?? null,
    setItem: (k: string, v: string) => void stored.set(k, v),
  };
  return stored;
};

describe('the page’s speed', () => {
  afterEach(() => {
    speed.record = null;
    delete (globalThis as { localStorage?: unknown }).localStorage;
  });
  const work = { flops: 1e9, size: 8192 };

  it('one run is one measurement: its latest report stands, and it is kept when the run ends', () => {
    const stored = memoryStorage();
    speed.record = calibrated;
    const run = {};
    speed.measure(run, 'e', work, 0.1, 500); // the first second: start-up, not counted
    expect(speed.record).toBe(calibrated);
    for (let i = 1; i <= 10; i++) speed.measure(run, 'e', work, i / 10, ((i / 10) * 1e9) / 40e6 + 1000); // 40 MFLOP/ms after a second of start-up
    const last = 1e9 / (1e9 / 40e6 + 1000);
    const once = learn(calibrated, 'e', last, 8192)!;
    expect(speed.record).toEqual(once);
    expect(stored.size).toBe(0); // kept only when the run ends
    speed.finish(run);
    expect(speed.record).toEqual(once);
    expect(parseRecord(JSON.parse(stored.get('lnx.speed.v2')!))).toEqual(once);
    speed.finish(run); // once
    expect(speed.record).toEqual(once);
  });

  it('two runs at once are two measurements; the fixed cost of a job is taken off the elapsed time', () => {
    speed.record = { ...calibrated, startMs: 500 };
    const a = {},
      b = {};
    speed.measure(a, 'e', work, 0.5, 3000); // 0.5e9 FLOPs in 2500 ms of arithmetic
    speed.measure(b, 'e', { flops: 1e9, size: 2048 }, 0.2, 2500);
    speed.measure(a, 'e', work, 1, 5500);
    const want = learn(learn({ ...calibrated, startMs: 500 }, 'e', 1e9 / 5000, 8192), 'e', 0.2e9 / 2000, 2048);
    expect(speed.record).toEqual(want);
    speed.finish(b);
    speed.finish(a);
    expect(speed.record).toEqual(learn(learn({ ...calibrated, startMs: 500 }, 'e', 0.2e9 / 2000, 2048), 'e', 1e9 / 5000, 8192));
  });
});

describe('the speed of the engine that will run a job', () => {
  afterEach(() => {
    speed.record = null;
    delete (globalThis as { localStorage?: unknown }).localStorage;
  });
  const gpu: SpeedRecord = { engine: 'webgpu/wasm-mt/1', points: [[8192, 500e6, 1]] };
  const cpu: SpeedRecord = { engine: 'cpu-mt/wasm-mt-fma/2', points: [[8192, 50e6, 1]] };
  const work = { flops: 1e9, size: 8192 };

  it.each<[string, SpeedRecord | null, boolean, 'page' | 'cpu']>([
    ['a CPU-only job on a page on WebGPU', gpu, true, 'cpu'],
    ['any other job on a page on WebGPU', gpu, false, 'page'],
    ['a CPU-only job on a page on the CPU engine', cpu, true, 'page'],
    ['any job on a page on the CPU engine', cpu, false, 'page'],
    ['a CPU-only job before any speed is known', null, true, 'page'],
  ])('%s → the %s lane', (_, page, cpuOnly, want) => expect(laneFor(page, cpuOnly)).toBe(want));

  it.each<[string, Record<string, unknown> | null, boolean]>([
    ['grid', { data: 'text', text_lang: 'en' }, true],
    ['grid', { data: 'markov' }, false],
    ['grid', {}, false],
    ['grid', null, false],
    ['probe', { data: 'text' }, false],
    ['warmupLength', {}, true],
    // the phase diagram runs batched on WebGPU (backend-choice.ts GPU_EXPERIMENTS), in all three of its slots
    ['phaseDiagram', {}, false],
    ['deepNorm', { depths: [2] }, false],
    ['preWarmup', {}, false],
  ])('a %s run of %j is CPU-only: %s', (name, c, want) => expect(cpuOnlyRun(name as never, c)).toBe(want));

  it('on a page on WebGPU a text grid has no estimate until the CPU build has run one, then its speed, never the GPU’s', () => {
    const stored = memoryStorage();
    speed.record = gpu;
    expect(speed.estimateMs(work, false)).toBeCloseTo(2, 9); // 1e9 FLOPs at 500 MFLOP/ms
    expect(speed.estimateMs(work, true)).toBeNull(); // not 2 ms: the GPU does not run it
    // the text grid runs on the CPU build at 50 MFLOP/ms: it teaches the CPU lane only
    const run = {};
    speed.measure(run, 'cpu-mt', { flops: 1e11, size: 8192 }, 1, 1e11 / 50e6, 'cpu'); // 2 s
    speed.finish(run);
    expect(speed.record).toBe(gpu);
    expect(speed.cpuRecord?.points).toEqual([[8192, 50e6, 1]]);
    expect(speed.estimateMs(work, true)).toBeCloseTo(20, 9);
    expect(speed.estimateMs(work, false)).toBeCloseTo(2, 9);
    expect(parseRecord(JSON.parse(stored.get('lnx.speed.cpu.v2')!))?.engine).toBe('cpu-mt');
    expect(stored.has('lnx.speed.v2')).toBe(false); // the page engine's record is not rewritten
  });

  it('on a page on the CPU engine a text grid is estimated at the page engine’s speed', () => {
    speed.record = cpu;
    expect(speed.estimateMs(work, true)).toBeCloseTo(20, 9);
    expect(speed.estimateMs(work, false)).toBeCloseTo(20, 9);
  });
});
