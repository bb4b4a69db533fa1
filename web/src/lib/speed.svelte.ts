// speed.svelte.ts — this device's measured speed for live runs, in FLOPs per ms of the arithmetic
// lib/cost.ts counts, as a function of the products' size (cost.ts Work), and the estimates made
// from it. The calibration (lib/calibrate.ts) measures the rate at a few sizes; an estimate reads
// it at the run's size (log–log between the measured points, flat beyond them). The reader's own
// live runs then refine it: each progress report of a run whose cost is known scales the curve
// towards what it measured. Kept in localStorage, so the next visit estimates before computing
// anything. A speed is kept per engine (backend, flavour, threads): another one starts over.
// Leaves out: experiments (their cost is not modelled).
import type { Work } from './cost';

const KEY = 'lnx.speed.v1';


export interface SpeedRecord {
  /** the engine it was measured on ("cpu-mt/4", "webgpu") */
  engine: string;
  /** FLOPs per ms at the largest measured size (a record without `curve`: at every size) */
  flopsPerMs: number;
  /** [size, FLOPs per ms] measured by the calibration, ascending in size */
  curve?: [number, number][];
  /** how many measurements it averages (the weight of the next one falls as 1/(n+1), to 1/8) */
  n: number;
  /** ms a job costs before and after its arithmetic (the worker's hand-off, building the run,
   *  its first chunk's warm-up, the result's way back), measured by the calibration; a sub-second
   *  run is mostly this */
  startMs?: number;
}

/** The record's FLOP rate at a product size: the curve read log–log, flat beyond its ends. Pure. */
export function rateAt(rec: SpeedRecord, size: number): number {
  const c = rec.curve?.filter(([s, r]) => s > 0 && r > 0);
  if (!c?.length) return rec.flopsPerMs;
  // the curve is the calibration's shape; flopsPerMs (refined by live runs) its level at the top
  const scale = rec.flopsPerMs / c[c.length - 1][1];
  if (size <= c[0][0]) return c[0][1] * scale;
  for (let i = 1; i < c.length; i++) {
    const [s0, r0] = c[i - 1];
    const [s1, r1] = c[i];
    if (size <= s1) return Math.exp(Math.log(r0) + ((Math.log(size) - Math.log(s0)) / (Math.log(s1) - Math.log(s0))) * (Math.log(r1) - Math.log(r0))) * scale;
  }
  return c[c.length - 1][1] * scale;
}

/** A calibration's record: its rates by size, ascending, the level that of the largest size. Pure. */
export function calibratedRecord(engine: string, curve: [number, number][], startMs?: number): SpeedRecord {
  const sorted = [...curve].sort((a, b) => a[0] - b[0]);
  const rec: SpeedRecord = { engine, flopsPerMs: sorted[sorted.length - 1][1], curve: sorted, n: 1 };
  if (startMs != null) rec.startMs = startMs; // calibrate.ts startCost: finite, never below 0
  return rec;
}

/** The record after one more measurement of the rate at `size` (its level at the curve's top: the
 *  measured rate over the curve's shape there): a running mean whose newest report weighs at least
 *  1/8 (a device gets slower under load; old measurements fade). */
export function learn(prev: SpeedRecord | null, engine: string, flopsPerMs: number, size?: number): SpeedRecord {
  if (!(flopsPerMs > 0) || !Number.isFinite(flopsPerMs)) return prev ?? { engine, flopsPerMs: NaN, n: 0 };
  const same = prev && prev.engine === engine && prev.flopsPerMs > 0 ? prev : null;
  // the level this measurement implies at the curve's top
  const level = same && size != null ? flopsPerMs * (same.flopsPerMs / rateAt(same, size)) : flopsPerMs;
  if (!same) return { engine, flopsPerMs: level, n: 1 };
  const w = Math.max(1 / 8, 1 / (same.n + 1));
  return { ...same, flopsPerMs: same.flopsPerMs * (1 - w) + level * w, n: same.n + 1 };
}

/** ms for `work` at the record's speed; null without a usable record or cost. */
export function estimateMs(rec: SpeedRecord | null, work: Work | null): number | null {
  if (!rec || !(rec.flopsPerMs > 0) || work == null || !(work.flops >= 0)) return null;
  return (rec.startMs ?? 0) + work.flops / rateAt(rec, work.size);
}

function load(): SpeedRecord | null {
  try {
    const v = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? 'null');
    const startOk = v?.startMs == null || (typeof v.startMs === 'number' && v.startMs >= 0 && Number.isFinite(v.startMs));
    const curveOk = startOk && (v?.curve == null || (Array.isArray(v.curve) && v.curve.every((p: unknown) => Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === 'number' && x > 0))));
    return v && typeof v.engine === 'string' && v.flopsPerMs > 0 && Number.isFinite(v.flopsPerMs) && v.n >= 1 && curveOk ? v : null;
  } catch {
    return null; // private mode, a corrupted entry: no estimate, nothing else lost
  }
}

/** The page's speed: the last measured record (reactive), updated by `measure`. */
class Speed {
  record = $state.raw<SpeedRecord | null>(load());
  /** A progress report of a live run of `flops` in total on `engine`: `fraction` done in `elapsedMs`
   *  (in memory; `save` keeps it for the next visit, once per run). */
  measure(engine: string, work: Work, fraction: number, elapsedMs: number) {
    if (!(fraction > 0) || !(elapsedMs > 1000)) return; // the first second includes start-up
    this.record = learn(this.record, engine, (fraction * work.flops) / elapsedMs, work.size);
  }
  /** The calibration's measured rates, [size, FLOPs per ms], on `engine`, and its fixed cost of a
   *  job (lib/calibrate.ts). */
  calibrated(engine: string, curve: [number, number][], startMs?: number) {
    if (curve.length) this.record = calibratedRecord(engine, curve, startMs);
  }
  save() {
    if (!this.record) return;
    try {
      globalThis.localStorage?.setItem(KEY, JSON.stringify(this.record));
    } catch {
      /* storage full or unavailable: the estimate lasts for this visit */
    }
  }
  estimateMs(work: Work | null): number | null {
    return estimateMs(this.record, work);
  }
}

export const speed = new Speed();
