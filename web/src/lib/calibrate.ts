// calibrate.ts — a short measurement of this device's speed, made once (then cached by
// lib/speed.svelte.ts in localStorage) so that Recompute can say "about 3 min here" before the
// reader's first run. The FLOP rate depends on the products' size (lib/cost.ts Work), so it times
// three short grids of the toy model (its 8 layers and width: a 2-layer model runs faster per FLOP,
// the output layer being a larger share) on 1 × 16, 2 × 32 and 8 × 64 tokens per step, after an
// untimed warm-up (calibrationWarmup), and keeps the rate at each size. Each is timed between its
// first and last progress report, leaving out the engine's start-up; what the whole job took beyond
// that arithmetic (hand-off to the worker, building the run, the result's way back: the median
// over the three) is kept as the fixed cost of a job, which a sub-second run is mostly made of.
// Together about five seconds on a 2-core machine, in the engine's worker. It starts when a figure
// whose runs have an estimate nears the viewport on a visit that has no speed stored (at idle:
// RunControls), when the reader reaches for a live run (hovers or focuses Recompute, opens the
// settings) and no speed is known for the engine that would run it, or when a link asks for a run
// (result-slots.svelte.ts Slot.start); it leaves no run list entry. Started by the page alone, it
// gives way to the reader (lib/reader-gate.ts): each grid waits for a pause in the reader's input and
// stops at the next input, to run again at the next pause; once the reader waits for it (any of the
// other starts), it runs on without giving way.
import type { GridConfig } from '../engine/documents';
import type { EngineReady, Progress } from '../engine/client';
import { gridWork } from './cost';
import { speed } from './speed.svelte';
import { GRID_DEFAULTS } from '../generated/engine-schema';
import type { ReaderGate } from './reader-gate';

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
    { ...base, steps: 12 }, // the engine's own toy grid's products (its batch and seq)
  ];
}

/** An untimed grid run first: the browser compiles wasm with a quick baseline compiler and tiers
 *  hot functions up to the optimising one as they run, so a first measurement straight after the
 *  engine's start timed the slower code (measured in Chromium: the 1 × 16 rate doubled and the
 *  8 × 64 one rose by a quarter with this warm-up first). The middle size, 10 steps. */
export const calibrationWarmup = (configs: readonly GridConfig[]): GridConfig => ({ ...configs[1], steps: 10 });

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

type Run = (c: Partial<GridConfig>, onP: (p: Progress) => void, signal?: AbortSignal) => Promise<unknown>;

/** The fixed cost of a job from the calibration's [wall ms, arithmetic ms] pairs: the median of
 *  their differences, never below 0. Null when none. Pure. */
export function startCost(jobs: readonly [number, number][]): number | null {
  const d = jobs
    .map(([wall, compute]) => Math.max(0, wall - compute))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  if (!d.length) return null;
  const m = d.length >> 1;
  return d.length % 2 ? d[m] : (d[m - 1] + d[m]) / 2;
}

let pending: Promise<boolean> | null = null;
/** what the calibration under way gives way to: null once someone waits for it */
let yieldTo: ReaderGate | null = null;
/** ends the calibration's wait for a pause, when someone starts waiting for it */
let hurry: (() => void) | null = null;

/** Measure once per visit when no calibrated speed is known for the engine; resolves true when it
 *  learned one. `run` and `info` are the engine client's, `now` the clock (parameters for the tests).
 *  With `gate` (the page's own start), each grid waits for the reader's pause and a grid the reader
 *  interrupts runs again at the next one; a call without it (someone waits for the speed) ends the
 *  giving way of one under way. */
export function calibrateOnce(
  run: Run,
  info: () => Promise<EngineReady>,
  now: () => number = () => performance.now(),
  gate: ReaderGate | null = null,
): Promise<boolean> {
  if (pending) {
    if (!gate && yieldTo) {
      yieldTo = null;
      hurry?.();
    }
    return pending;
  }
  yieldTo = gate;
  /** one grid to its end: its progress reports and its wall time, from its last start */
  const timed = async (c: Partial<GridConfig>) => {
    for (;;) {
      const g = yieldTo;
      if (g)
        await new Promise<void>((resolve) => {
          hurry = resolve; // (someone waits for the speed: no pause to wait for)
          void g.quiet().then(resolve);
        });
      const reports: Progress[] = [];
      const stop = new AbortController();
      const off = yieldTo?.onInput(() => void (yieldTo && stop.abort())) ?? (() => {});
      const t0 = now();
      try {
        await run(c, (p) => void reports.push(p), stop.signal);
        return { reports, wall: now() - t0 };
      } catch (e) {
        if (!stop.signal.aborted) throw e; // (the reader came: the same grid at the next pause)
      } finally {
        off();
      }
    }
  };
  pending = (async () => {
    const e = await info();
    const key = engineKey(e);
    // (a record from before the fixed cost was measured calibrates once more)
    if (speed.record?.engine === key && speed.record.startMs != null) return false;
    const curve: [number, number][] = [];
    const jobs: [number, number][] = [];
    const configs = calibrationConfigs(e.backend === 'webgpu' ? 1 : e.threads);
    await timed(calibrationWarmup(configs));
    for (const c of configs) {
      const { reports, wall } = await timed(c);
      const ms = msPerFraction(reports);
      const w = gridWork(c);
      if (ms != null) {
        curve.push([w.size, w.flops / ms]);
        jobs.push([wall, ms]);
      }
    }
    if (!curve.length) return false;
    speed.calibrated(key, curve, startCost(jobs) ?? undefined);
    return true;
  })()
    .catch(() => false)
    .finally(() => void ((yieldTo = null), (hurry = null)));
  return pending;
}

/** Forget that a calibration ran (tests). */
export const resetCalibration = () => void ((pending = null), (yieldTo = null), (hurry = null));

/** The calibration the page starts by itself (a figure nearing the viewport, a link's run on a first
 *  visit, a Recompute pressed before any speed is known): on the CPU engine only. On WebGPU its grids
 *  take minutes on a software adapter and are not needed to keep a link's run short (the run's own
 *  ETA stops it after 3 s: result-slots.svelte.ts); a reader reaching for Recompute there still
 *  calibrates (calibrateOnce). With `gate`, it gives way to the reader (nobody waits for it: a figure
 *  nearing the viewport). Resolves true when it learned a speed. */
export async function calibrateAuto(run: Run, info: () => Promise<EngineReady>, gate: ReaderGate | null = null): Promise<boolean> {
  const e = await info();
  if (e.backend === 'webgpu') return false;
  return calibrateOnce(run, info, undefined, gate);
}
