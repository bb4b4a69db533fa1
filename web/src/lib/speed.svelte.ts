// speed.svelte.ts — this device's measured speed for live runs, in FLOPs per ms of the arithmetic
// lib/cost.ts counts, as a function of the products' size (cost.ts Work), and the estimates made
// from it. The speed is a set of measured points, one per product size: the calibration's three
// (lib/calibrate.ts) and the sizes of the reader's own live runs. An estimate reads it at the run's
// size, log–log between the points and flat beyond them.
//
// A live run is one measurement at its own size. It moves the point at that size (or adds one) and,
// more weakly, its neighbours within a factor of about 4 in size; a point 8× away barely moves. The
// rate per FLOP at one size says little about another (a step of 16 tokens runs at a third of one
// of 512's, and the calibration's smallest size is its noisiest: 24–41 MFLOP/ms over five visits on
// one machine, against 79–85 at its largest), so a quick look must not re-level the estimate of
// the full grid: scaling the whole curve by what a run measured at another size made the page bench's
// full-grid estimate miss by −44% (docs/benchmarks.md, 2026-12-03). Kept in localStorage, so the
// next visit estimates before computing anything. A speed is kept per engine (backend, flavour,
// threads): another one starts over. Two are kept, one per lane (Lane): the page's engine's, and on a
// page that runs on WebGPU, the CPU build's, which runs the jobs WebGPU does not (experiments, grids
// on the article's text: engine/backend-choice.ts cpuOnlyJob), so that such a job is estimated at
// the speed of the engine that will run it (laneFor), never at the GPU's. Leaves out: the
// experiments but warmup-length (cost.ts experimentWork says why).
import type { Work } from './cost';

/** Which engine's speed: the page's engine ('page'), or the CPU build that runs the CPU-only jobs
 *  of a page on WebGPU ('cpu'; on a page on the CPU engine those run on the page's engine). */
export type Lane = 'page' | 'cpu';
const KEYS: Record<Lane, string> = { page: 'lnx.speed.v2', cpu: 'lnx.speed.cpu.v2' };
/** The format before the points (one level and a curve of the calibration's shape); read once. */
const KEY_V1 = 'lnx.speed.v1';

/** [product size, FLOPs per ms, how many measurements the rate averages] */
export type SpeedPoint = [size: number, flopsPerMs: number, n: number];

export interface SpeedRecord {
  /** the engine it was measured on ("cpu-mt/wasm-mt/4", "webgpu/webgpu/1") */
  engine: string;
  /** the rate measured at each product size, ascending in size (never empty) */
  points: SpeedPoint[];
  /** ms a job costs before and after its arithmetic (the worker's hand-off, building the run,
   *  its first chunk's warm-up, the result's way back), measured by the calibration; a sub-second
   *  run is mostly this */
  startMs?: number;
}

/** Sizes within this factor of a point are measured at that point (no new point). */
const SAME_SIZE = Math.SQRT2;
/** How far a measurement reaches in log size: a point 2× away moves 0.61 as far as the one at the
 *  run's size, 4× away 0.14, 8× away 0.01 (a Gaussian in ln size, σ = ln 2). */
const REACH = Math.LN2;
/** At most this many points (a run at a new size past it takes over the nearest point). */
const MAX_POINTS = 12;
/** The newest measurement at a point weighs 1/(n+1), never below this: a device gets slower
 *  under load; old measurements fade. */
const MIN_WEIGHT = 1 / 8;

const ln = Math.log;

/** The record's FLOP rate at a product size: log–log between its points, flat beyond the ends. Pure. */
export function rateAt(rec: SpeedRecord, size: number): number {
  const c = rec.points;
  if (!c.length) return NaN;
  if (!(size > c[0][0])) return c[0][1];
  for (let i = 1; i < c.length; i++) {
    const [s0, r0] = c[i - 1];
    const [s1, r1] = c[i];
    if (size === s1) return r1;
    if (size < s1) return Math.exp(ln(r0) + ((ln(size) - ln(s0)) / (ln(s1) - ln(s0))) * (ln(r1) - ln(r0)));
  }
  return c[c.length - 1][1];
}

/** A calibration's record: its rates by size, ascending, one measurement each. Pure. */
export function calibratedRecord(engine: string, curve: [number, number][], startMs?: number): SpeedRecord {
  const points = [...curve].sort((a, b) => a[0] - b[0]).map(([s, r]): SpeedPoint => [s, r, 1]);
  const rec: SpeedRecord = { engine, points };
  if (startMs != null) rec.startMs = startMs; // calibrate.ts startCost: finite, never below 0
  return rec;
}

/** The record after one more measurement, `flopsPerMs` at product size `size`: the point at that
 *  size (within √2) takes it as a running mean in log rate, and its neighbours move towards it as
 *  far as the measurement reaches (REACH); without a point there, the measurement is a new one.
 *  Another engine's record, or none, starts over. An unusable measurement changes nothing. Pure. */
export function learn(prev: SpeedRecord | null, engine: string, flopsPerMs: number, size: number): SpeedRecord | null {
  if (!(flopsPerMs > 0) || !Number.isFinite(flopsPerMs) || !(size > 0) || !Number.isFinite(size)) return prev;
  const same = prev && prev.engine === engine && prev.points.length ? prev : null;
  if (!same) return { engine, points: [[size, flopsPerMs, 1]] };
  const surprise = ln(flopsPerMs / rateAt(same, size)); // in log rate
  const dist = (s: number) => Math.abs(ln(s / size)); // in ln size
  const weight = (n: number) => Math.max(MIN_WEIGHT, 1 / (n + 1));
  const points = same.points.map(([s, r, n]): SpeedPoint => [s, r * Math.exp(Math.exp(-0.5 * (dist(s) / REACH) ** 2) * weight(n) * surprise), n]);
  let nearest = 0;
  for (let i = 1; i < points.length; i++) if (dist(points[i][0]) < dist(points[nearest][0])) nearest = i;
  if (dist(points[nearest][0]) < ln(SAME_SIZE)) {
    // the point at this size: exactly the running mean (the kernel is 1 only at d = 0)
    const [s, r, n] = same.points[nearest];
    points[nearest] = [s, r * Math.exp(weight(n) * ln(flopsPerMs / r)), n + 1];
  } else if (points.length >= MAX_POINTS) {
    points[nearest] = [size, flopsPerMs, 1];
  } else {
    points.push([size, flopsPerMs, 1]);
  }
  points.sort((a, b) => a[0] - b[0]);
  return { ...same, points };
}

/** ms for `work` at the record's speed; null without a usable record or cost. */
export function estimateMs(rec: SpeedRecord | null, work: Work | null): number | null {
  if (!rec?.points.length || work == null || !(work.flops >= 0)) return null;
  const rate = rateAt(rec, work.size);
  return rate > 0 ? (rec.startMs ?? 0) + work.flops / rate : null;
}

const positive = (x: unknown): x is number => typeof x === 'number' && x > 0 && Number.isFinite(x);
const startOk = (v: { startMs?: unknown }) => v.startMs == null || (typeof v.startMs === 'number' && v.startMs >= 0 && Number.isFinite(v.startMs));

/** A stored record, checked (null for anything else: no estimate, nothing else lost). Pure. */
export function parseRecord(v: unknown): SpeedRecord | null {
  if (!v || typeof v !== 'object') return null;
  const r = v as Partial<SpeedRecord>;
  const ok =
    typeof r.engine === 'string' &&
    startOk(r) &&
    Array.isArray(r.points) &&
    r.points.length > 0 &&
    r.points.length <= MAX_POINTS &&
    r.points.every((p, i, a) => Array.isArray(p) && p.length === 3 && positive(p[0]) && positive(p[1]) && p[2] >= 1 && (i === 0 || p[0] > a[i - 1][0]));
  return ok ? (r as SpeedRecord) : null;
}

/** A record of the first format: the calibration's curve scaled to its level. One without a
 *  curve (a level at every size) has no sizes to keep: null, and the page calibrates again. Pure. */
export function fromV1(v: unknown): SpeedRecord | null {
  const o = v as { engine?: unknown; flopsPerMs?: unknown; curve?: unknown; startMs?: unknown } | null;
  if (!o || typeof o.engine !== 'string' || !positive(o.flopsPerMs) || !startOk(o) || !Array.isArray(o.curve) || !o.curve.length) return null;
  const curve = o.curve as unknown[];
  if (!curve.every((p) => Array.isArray(p) && p.length === 2 && positive(p[0]) && positive(p[1]))) return null;
  const sorted = [...(curve as [number, number][])].sort((a, b) => a[0] - b[0]);
  const scale = o.flopsPerMs / sorted[sorted.length - 1][1];
  return parseRecord(
    calibratedRecord(
      o.engine,
      sorted.map(([s, r]) => [s, r * scale]),
      o.startMs as number | undefined,
    ),
  );
}

/** Whether a record was measured on the WebGPU engine (calibrate.ts engineKey: backend first). */
export const onWebGpu = (rec: SpeedRecord | null): boolean => rec?.engine.startsWith('webgpu/') ?? false;

/** The lane whose speed estimates a job: a CPU-only job (backend-choice.ts cpuOnlyJob) on a page
 *  whose engine is WebGPU (as its speed was measured there) runs on the CPU build; every other job
 *  on the page's engine. Pure. */
export function laneFor(page: SpeedRecord | null, cpuOnly: boolean): Lane {
  return cpuOnly && onWebGpu(page) ? 'cpu' : 'page';
}

function load(lane: Lane): SpeedRecord | null {
  try {
    const ls = globalThis.localStorage;
    const v2 = ls?.getItem(KEYS[lane]);
    if (v2 != null) return parseRecord(JSON.parse(v2));
    return lane === 'page' ? fromV1(JSON.parse(ls?.getItem(KEY_V1) ?? 'null')) : null;
  } catch {
    return null; // private mode, a corrupted entry: no estimate, nothing else lost
  }
}

type Measurement = [engine: string, flopsPerMs: number, size: number];

/** The page's speed, per lane: what the calibration and the finished runs taught (kept for the next
 *  visit), with the runs in progress on top (reactive `record`, `cpuRecord`). */
class Speed {
  /** the calibration's and the finished runs' record, per lane */
  #kept: Record<Lane, SpeedRecord | null> = { page: load('page'), cpu: load('cpu') };
  /** each run in progress: its lane and its latest measurement (one run is one measurement; its
   *  latest report, over the most work, the best) */
  #live = new Map<unknown, [Lane, Measurement]>();
  #shown = $state.raw<Record<Lane, SpeedRecord | null>>({ ...this.#kept });

  /** the page's engine's speed (the calibration's, and its runs') */
  get record(): SpeedRecord | null {
    return this.#shown.page;
  }
  /** a record to start from (tests; runs in progress forgotten, the CPU lane emptied) */
  set record(r: SpeedRecord | null) {
    this.#kept = { page: r, cpu: null };
    this.#live.clear();
    this.#shown = { ...this.#kept };
  }
  /** the speed of the CPU build on a page on WebGPU (its CPU-only jobs'), null elsewhere or unmeasured */
  get cpuRecord(): SpeedRecord | null {
    return this.#shown.cpu;
  }

  /** A progress report of the live run `run` (any token, the same for all its reports) of `work`
   *  on `engine`: `fraction` done in `elapsedMs`, the job's fixed cost included (taken off). `lane`:
   *  'cpu' for a CPU-only job on a page on WebGPU (laneFor), whose speed is not the page engine's. */
  measure(run: unknown, engine: string, work: Work, fraction: number, elapsedMs: number, lane: Lane = 'page') {
    if (!(fraction > 0) || !(elapsedMs > 1000)) return; // the first second includes start-up
    const arithmeticMs = Math.max(elapsedMs - (this.#kept[lane]?.startMs ?? 0), elapsedMs / 2);
    this.#live.set(run, [lane, [engine, (fraction * work.flops) / arithmeticMs, work.size]]);
    this.#show();
  }
  /** The run `run` ended (done, cancelled or failed): what it measured is kept, for the next visit too. */
  finish(run: unknown) {
    const m = this.#live.get(run);
    if (!m) return;
    this.#live.delete(run);
    const [lane, x] = m;
    this.#kept = { ...this.#kept, [lane]: learn(this.#kept[lane], ...x) };
    this.#show();
    this.#save(lane);
  }
  /** The calibration's measured rates, [size, FLOPs per ms], on `engine` (the page's), and its
   *  fixed cost of a job (lib/calibrate.ts). */
  calibrated(engine: string, curve: [number, number][], startMs?: number) {
    if (!curve.length) return;
    this.#kept = { ...this.#kept, page: calibratedRecord(engine, curve, startMs) };
    this.#show();
    this.#save('page');
  }
  /** ms for `work` on the engine that will run it: `cpuOnly`, a job the WebGPU engine does not run
   *  (backend-choice.ts cpuOnlyJob), which on a page on WebGPU runs on the CPU build (laneFor). */
  estimateMs(work: Work | null, cpuOnly = false): number | null {
    return estimateMs(this.#shown[laneFor(this.#shown.page, cpuOnly)], work);
  }
  #show() {
    const r = { ...this.#kept };
    for (const [lane, m] of this.#live.values()) r[lane] = learn(r[lane], ...m);
    this.#shown = r;
  }
  #save(lane: Lane) {
    if (!this.#kept[lane]) return;
    try {
      globalThis.localStorage?.setItem(KEYS[lane], JSON.stringify(this.#kept[lane]));
    } catch {
      /* storage full or unavailable: the estimate lasts for this visit */
    }
  }
}

export const speed = new Speed();

/** A run estimated to take longer than this here starts only after the reader confirms it
 *  (RunControls): a click should not start an 18-minute (or a 47-hour) computation unasked. */
export const ASK_ABOVE_MS = 3 * 60_000;
