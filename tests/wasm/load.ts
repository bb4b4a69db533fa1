// load.ts — loads a WebAssembly flavour of the engine in Node (Vitest): scripts/load-engine.mjs,
// typed; and what the wasm tests share: running a run to its end, and the comparison of two result
// documents number by number.
import { expect } from 'vitest';
import type { LnxModule } from '../../public/wasm/lnx';
import { numbersOf } from '../../web/src/lib/doc-compare';
import type { CpuGlue } from '../../web/src/engine/backend-choice';
// @ts-expect-error — a plain ES module without typings; its one export is typed here
import { loadEngine as load } from '../../scripts/load-engine.mjs';

/** a CPU flavour's glue name (public/wasm/lnx-<flavour>.mjs) */
export type Flavour = CpuGlue;

export const loadEngine = (flavour: Flavour): Promise<LnxModule> => load(flavour);

/** Every number of a document, depth first, object keys sorted, its `engine` block left out
 *  (lib/doc-compare.ts, which the page uses to say a live run reproduced the precomputed one). */
export const numbers = (v: unknown): number[] => numbersOf(v);

/** a and b have the same length and agree entry by entry to `rel` (relative above 1, absolute below). */
export function expectClose(a: number[], b: number[], rel: number) {
  expect(a.length).toBe(b.length);
  a.forEach((x, i) => expect(Math.abs(x - b[i]), `entry ${i}: ${x} vs ${b[i]}`).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(x))));
}

/** A run that reports its progress (ProbeRun, ExperimentRun), stepped `work` units a call to its end,
 *  its progress never falling back: its result document, parsed; the run is deleted. */
export function runToEnd(run: { done(): boolean; step(work: number): number; resultJson(): string; delete(): void }, work: number) {
  let last = 0;
  while (!run.done()) {
    const f = run.step(work);
    expect(f).toBeGreaterThanOrEqual(last);
    last = f;
  }
  const doc = JSON.parse(run.resultJson());
  run.delete();
  return doc;
}
