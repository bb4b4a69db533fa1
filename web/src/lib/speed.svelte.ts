// speed.svelte.ts — this device's measured speed for live runs, in FLOPs per ms of the arithmetic
// lib/cost.ts counts, and the estimates made from it. Learned from the reader's own live runs (each
// progress report of a run whose cost is known gives done-FLOPs / elapsed ms) and kept in
// localStorage, so the next visit estimates before computing anything. A speed is kept per engine
// (backend, flavour, threads): a run on another one does not reuse it.
// Before any run, a short calibration (lib/calibrate.ts) gives the first speed.
// Leaves out: experiments (their cost is not modelled).

const KEY = 'lnx.speed.v1';

export interface SpeedRecord {
  /** the engine it was measured on ("cpu-mt/4", "webgpu") */
  engine: string;
  flopsPerMs: number;
  /** how many progress reports it averages (the weight of the next one falls as 1/(n+1), to 1/8) */
  n: number;
}

/** The record after one more measurement: a running mean whose newest report weighs at least 1/8
 *  (a device gets slower under load; old measurements fade). */
export function learn(prev: SpeedRecord | null, engine: string, flopsPerMs: number): SpeedRecord {
  if (!(flopsPerMs > 0) || !Number.isFinite(flopsPerMs)) return prev ?? { engine, flopsPerMs: NaN, n: 0 };
  if (!prev || prev.engine !== engine || !(prev.flopsPerMs > 0)) return { engine, flopsPerMs, n: 1 };
  const w = Math.max(1 / 8, 1 / (prev.n + 1));
  return { engine, flopsPerMs: prev.flopsPerMs * (1 - w) + flopsPerMs * w, n: prev.n + 1 };
}

/** ms for `flops` at the record's speed; null without a usable record or cost. */
export function estimateMs(rec: SpeedRecord | null, flops: number | null): number | null {
  if (!rec || !(rec.flopsPerMs > 0) || flops == null || !(flops >= 0)) return null;
  return flops / rec.flopsPerMs;
}

function load(): SpeedRecord | null {
  try {
    const v = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? 'null');
    return v && typeof v.engine === 'string' && v.flopsPerMs > 0 && Number.isFinite(v.flopsPerMs) && v.n >= 1 ? v : null;
  } catch {
    return null; // private mode, a corrupted entry: no estimate, nothing else lost
  }
}

/** The page's speed: the last measured record (reactive), updated by `measure`. */
class Speed {
  record = $state.raw<SpeedRecord | null>(load());
  /** A progress report of a live run of `flops` in total on `engine`: `fraction` done in `elapsedMs`
   *  (in memory; `save` keeps it for the next visit, once per run). */
  measure(engine: string, flops: number, fraction: number, elapsedMs: number) {
    if (!(fraction > 0) || !(elapsedMs > 1000)) return; // the first second includes start-up
    this.record = learn(this.record, engine, (fraction * flops) / elapsedMs);
  }
  /** A measured speed (a calibration's, lib/calibrate.ts) in FLOPs per ms on `engine`. */
  learnRate(engine: string, flopsPerMs: number) {
    this.record = learn(this.record, engine, flopsPerMs);
  }
  save() {
    if (!this.record) return;
    try {
      globalThis.localStorage?.setItem(KEY, JSON.stringify(this.record));
    } catch {
      /* storage full or unavailable: the estimate lasts for this visit */
    }
  }
  estimateMs(flops: number | null): number | null {
    return estimateMs(this.record, flops);
  }
}

export const speed = new Speed();
