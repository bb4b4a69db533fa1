// calibrate.ts — a short measurement of this device's speed, made once (then cached by
// lib/speed.svelte.ts in localStorage) so that Recompute can say "about 3 min here" before the
// reader's first run. It runs a small grid (calibrationConfig: one run per thread of the toy's layer
// shapes, 2 layers, 20 steps: about 26 GFLOP per two threads, a second or two) in the engine's worker, and takes the
// speed between its first and last progress report, leaving out the engine's start-up, which a
// long run pays once and the estimate does not model (docs/benchmarks.md measures the error).
// It starts only when the reader reaches for a live run (hovers or focuses Recompute, opens the
// settings) and no speed is known for the engine that would run it; it leaves no run list entry.
import type { GridConfig } from '../engine/documents';
import type { EngineReady, Progress } from '../engine/client';
import { gridFlops } from './cost';
import { speed } from './speed.svelte';
import { GRID_DEFAULTS } from '../generated/engine-schema';

/**
 * The calibration grid for an engine of `threads` threads: as many runs as threads (Post-LN and
 * Pre-LN over seeds; at least 2, at most 16), since a grid spreads its runs over the threads and a
 * one-run calibration would measure one core of many; 2 layers of the toy's width, 20 steps.
 */
export function calibrationConfig(threads: number): GridConfig {
  const runs = Math.max(2, Math.min(16, Math.round(threads) || 1));
  return {
    ...GRID_DEFAULTS,
    layers: 2,
    steps: 20,
    placements: ['post', 'pre'],
    warmups: [0],
    lrs: [1e-3],
    seeds: Array.from({ length: Math.ceil(runs / 2) }, (_, i) => i),
  };
}

/** FLOPs per ms from a run's progress reports: between the first and the last (start-up excluded);
 *  with one report only, over its whole time. Null when nothing usable was reported. Pure. */
export function rateFrom(reports: readonly Pick<Progress, 'fraction' | 'elapsedMs'>[], flops: number): number | null {
  const ok = reports.filter((p) => p.fraction > 0 && p.elapsedMs > 0);
  if (!ok.length) return null;
  const a = ok[0];
  const b = ok[ok.length - 1];
  const r = b.fraction > a.fraction && b.elapsedMs > a.elapsedMs ? ((b.fraction - a.fraction) * flops) / (b.elapsedMs - a.elapsedMs) : (b.fraction * flops) / b.elapsedMs;
  return Number.isFinite(r) && r > 0 ? r : null;
}

export const engineKey = (e: Pick<EngineReady, 'backend' | 'flavour' | 'threads'>) => `${e.backend}/${e.flavour}/${e.threads}`;

type Run = (c: Partial<GridConfig>, onP: (p: Progress) => void) => Promise<unknown>;

let pending: Promise<boolean> | null = null;

/** Measure once per visit when no speed is known for the engine; resolves true when it learned one.
 *  `run` and `info` are the engine client's (parameters for the tests). */
export function calibrateOnce(run: Run, info: () => Promise<EngineReady>): Promise<boolean> {
  pending ??= (async () => {
    const e = await info();
    const key = engineKey(e);
    if (speed.record?.engine === key && speed.record.flopsPerMs > 0) return false;
    const reports: Progress[] = [];
    const c = calibrationConfig(e.backend === 'webgpu' ? 1 : e.threads);
    await run(c, (p) => void reports.push(p));
    const rate = rateFrom(reports, gridFlops(c));
    if (rate == null) return false;
    speed.learnRate(key, rate);
    speed.save();
    return true;
  })().catch(() => false);
  return pending;
}

/** Forget that a calibration ran (tests). */
export const resetCalibration = () => void (pending = null);
