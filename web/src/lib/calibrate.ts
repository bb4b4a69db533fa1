// calibrate.ts — a short measurement of this device's speed, made once (then cached by
// lib/speed.svelte.ts in localStorage) so that Recompute can say "about 3 min here" before the
// reader's first run. The FLOP rate depends on the products' size (lib/cost.ts Work), so it times
// three short grids of the toy model (its 8 layers and width: a 2-layer model runs faster per FLOP,
// the output layer being a larger share) on 1 × 16, 2 × 32 and 8 × 64 tokens per step, and keeps
// the rate at each size. Each is timed between its first and last
// progress report, leaving out the engine's start-up, which a long run pays once and the estimate
// does not model (docs/benchmarks.md measures the error). Together two to three seconds. It
// starts only when the reader reaches for a live run (hovers or focuses Recompute, opens the
// settings) and no speed is known for the engine that would run it; it leaves no run list entry.
import type { GridConfig } from '../engine/documents';
import type { EngineReady, Progress } from '../engine/client';
import { gridWork } from './cost';
import { speed } from './speed.svelte';
import { GRID_DEFAULTS } from '../generated/engine-schema';

/**
 * The calibration grids for an engine of `threads` threads, smallest products first: as many runs
 * as threads (Post-LN and Pre-LN over seeds; at least 2, at most 16), since a grid spreads its runs
 * over the threads and a one-run calibration would measure one core of many; fewer steps for the
 * bigger products, so each takes about a second.
 */
export function calibrationConfigs(threads: number): GridConfig[] {
  const runs = Math.max(2, Math.min(16, Math.round(threads) || 1));
  const base: GridConfig = {
    ...GRID_DEFAULTS,
    placements: ['post', 'pre'],
    warmups: [0],
    lrs: [1e-3],
    seeds: Array.from({ length: Math.ceil(runs / 2) }, (_, i) => i),
  };
  return [
    { ...base, batch: 1, seq: 16, steps: 40 },
    { ...base, batch: 2, seq: 32, steps: 20 },
    { ...base, batch: 8, seq: 64, steps: 12 },
  ];
}

/** ms for the whole run from its progress reports: the median over the intervals between
 *  consecutive reports (the first report's time, which holds the start-up, left out; the median
 *  shrugs off a chunk the page's own work slowed); with one report only, over its whole time.
 *  Null when nothing usable. Pure. */
export function msPerFraction(reports: readonly Pick<Progress, 'fraction' | 'elapsedMs'>[]): number | null {
  const ok = reports.filter((p) => p.fraction > 0 && p.elapsedMs > 0);
  if (!ok.length) return null;
  const rates: number[] = [];
  for (let i = 1; i < ok.length; i++) {
    const df = ok[i].fraction - ok[i - 1].fraction;
    const dt = ok[i].elapsedMs - ok[i - 1].elapsedMs;
    if (df > 0 && dt > 0) rates.push(dt / df);
  }
  if (!rates.length) {
    const r = ok[ok.length - 1].elapsedMs / ok[ok.length - 1].fraction;
    return Number.isFinite(r) && r > 0 ? r : null;
  }
  rates.sort((a, b) => a - b);
  const m = rates.length >> 1;
  return rates.length % 2 ? rates[m] : (rates[m - 1] + rates[m]) / 2;
}

export const engineKey = (e: Pick<EngineReady, 'backend' | 'flavour' | 'threads'>) => `${e.backend}/${e.flavour}/${e.threads}`;

type Run = (c: Partial<GridConfig>, onP: (p: Progress) => void) => Promise<unknown>;

let pending: Promise<boolean> | null = null;

/** Measure once per visit when no calibrated speed is known for the engine; resolves true when it
 *  learned one. `run` and `info` are the engine client's (parameters for the tests). */
export function calibrateOnce(run: Run, info: () => Promise<EngineReady>): Promise<boolean> {
  pending ??= (async () => {
    const e = await info();
    const key = engineKey(e);
    if (speed.record?.engine === key && speed.record.flopsPerMs > 0 && speed.record.curve?.length) return false;
    const curve: [number, number][] = [];
    for (const c of calibrationConfigs(e.backend === 'webgpu' ? 1 : e.threads)) {
      const reports: Progress[] = [];
      await run(c, (p) => void reports.push(p));
      const ms = msPerFraction(reports);
      const w = gridWork(c);
      if (ms != null) curve.push([w.size, w.flops / ms]);
    }
    if (!curve.length) return false;
    speed.calibrated(key, curve);
    speed.save();
    return true;
  })().catch(() => false);
  return pending;
}

/** Forget that a calibration ran (tests). */
export const resetCalibration = () => void (pending = null);
