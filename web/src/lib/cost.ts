// cost.ts — how much arithmetic a live run is, before it runs: floating-point operations from the
// config alone, so the page can say "about 3 min here" with a measured speed (lib/speed.svelte.ts).
// The model is the engine's (model.h): per layer one attention sublayer (q, k, v: three d×d
// products; scores and their weighted sum, n×n per sequence) and one FFN (two d×d_ff products),
// then the output layer (d×V). A multiply–add counts 2. A training step is forward + backward ≈ 3
// forwards (the backward takes two products for each of the forward's one) plus the optimizer; a
// probe pass the same (its backward computes every gradient of the per-layer job; the depth sweep
// stops at the last layer's W², counted as 1.5 forwards). Norms, softmax and the rest are left out:
// the speed measured absorbs them. But that speed depends on the products' size: a step of 64 tokens
// runs at about half the FLOP rate of one of 512 (small matrices, per-op fixed costs, thread
// hand-offs). So a run's work also says its `size`, the activations one product reads (tokens per
// step × d), and the device's speed is measured at several sizes (lib/calibrate.ts) and read at the
// run's (lib/speed.svelte.ts). The fixed cost of a job (tens to hundreds of ms) is not FLOPs:
// the calibration measures it apart (lib/calibrate.ts startCost) and the estimate adds it. Pure.
import type { CommonFields, GridConfig, ProbeConfig } from '../generated/engine-schema';

/** The sizes the cost depends on (the engine's own fields, generated from its schema). */
export type ModelSize = Pick<CommonFields, 'layers' | 'd' | 'd_ff' | 'vocab' | 'seq' | 'batch'>;

/** FLOPs of one forward pass over one batch. */
export function forwardFlops(m: ModelSize): number {
  const N = m.batch * m.seq;
  const attention = 2 * N * 3 * m.d * m.d + 2 * 2 * m.batch * m.seq * m.seq * m.d;
  const ffn = 2 * 2 * N * m.d * m.d_ff;
  return m.layers * (attention + ffn) + 2 * N * m.d * m.vocab;
}

/** FLOPs of one training step (forward, backward, update). */
export const stepFlops = (m: ModelSize): number => 3 * forwardFlops(m);

/** What a run costs: its FLOPs, and the size of its products (tokens per step × d) that sets the
 *  rate at which this device does them. */
export interface Work {
  flops: number;
  size: number;
}

/** The size of a model's products (see above). */
export const productSize = (m: Pick<ModelSize, 'batch' | 'seq' | 'd'>): number => m.batch * m.seq * m.d;

/** The toy grid of Figure 4: every run (placements × warm-ups × lrs × seeds) for `steps` steps. */
export function gridFlops(c: Pick<GridConfig, keyof ModelSize | 'steps' | 'placements' | 'warmups' | 'lrs' | 'seeds'>): number {
  const runs = c.placements.length * c.warmups.length * c.lrs.length * c.seeds.length;
  return runs * c.steps * stepFlops(c);
}

/** The grid's work. */
export const gridWork = (c: Parameters<typeof gridFlops>[0]): Work => ({ flops: gridFlops(c), size: productSize(c) });

/** The probe of Figures 2–3: per placement and seed, `batches` passes at `layers`, then
 *  `depth_batches` passes at each depth of the sweep. */
export function probeFlops(c: Pick<ProbeConfig, keyof ModelSize | 'placements' | 'seeds' | 'batches' | 'depth_batches' | 'depths'>): number {
  const perLayerJob = c.batches * 3 * forwardFlops(c);
  const sweep = c.depths.reduce((s, L) => s + c.depth_batches * 1.5 * forwardFlops({ ...c, layers: L }), 0);
  return c.placements.length * c.seeds.length * (perLayerJob + sweep);
}

/** The probe's work. */
export const probeWork = (c: Parameters<typeof probeFlops>[0]): Work => ({ flops: probeFlops(c), size: productSize(c) });

/** The experiments whose cost is modelled: warmup-length, a toy grid per optimizer (optimizers ×
 *  placements × warm-ups × lr factors × seeds runs of `steps` steps of the config's model, its
 *  runs spread over the threads as the calibration's grids are); and phase-diagram, placements ×
 *  warm-ups × lrs × seeds runs at each depth, counted at their full `steps`: with early exit a run
 *  that leaves the plateau stops `settle` steps later, so for that setting this is an upper bound
 *  (the reference map took about 0.6 of it). The experiments that train one
 *  run at a time (plateau-share, adam-first-step) run slower per FLOP than the calibration's
 *  grids, by about 1.5× on 2 threads (measured in Chromium: plateau-share took 183 s where this
 *  model said 125), and the init-time ones are a forward or backward pass per perturbation, step
 *  size or layer: not modelled, null (no estimate rather than a wrong one). */
export function experimentWork(experiment: string, c: Record<string, unknown>): Work | null {
  const n = (k: string) => (Array.isArray(c[k]) ? (c[k] as unknown[]).length : 0);
  const m = c as unknown as ModelSize & { steps: number };
  if (!(m.steps > 0)) return null;
  let flops: number;
  if (experiment === 'warmup-length') flops = n('optimizers') * n('placements') * n('warmups') * n('lr_factors') * n('seeds') * m.steps * stepFlops(m);
  else if (experiment === 'phase-diagram') {
    const runs = n('placements') * n('warmups') * n('lrs') * n('seeds');
    const depths = Array.isArray(c.depths) ? (c.depths as unknown[]).filter((L): L is number => typeof L === 'number') : [];
    flops = depths.reduce((a, L) => a + runs * m.steps * stepFlops({ ...m, layers: L }), 0);
  } else return null;
  return Number.isFinite(flops) ? { flops, size: productSize(m) } : null;
}
