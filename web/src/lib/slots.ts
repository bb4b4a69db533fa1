// slots.ts — the result slots as a table: their names, the experiment each experiment slot draws
// (its precomputed file, the config of a recompute, its small setting) and where each slot's
// precomputed document is. Pure data: lib/runs/, the prose numbers, the worker that checks imported
// run files and the scripts read it without the live results (result-slots.svelte.ts), which
// re-exports it.

/**
 * The experiment documents the figures draw, by slot name: the engine's experiment, the config of a
 * recompute (the engine's defaults but what is listed), the precomputed file
 * (public/data/exp/<file>.json, written by scripts/precompute.mjs with the same config), and the
 * small setting a reader can recompute in seconds (the figure's "small" setting).
 */
export const EXPERIMENT_SLOTS = {
  outputSensitivity: { experiment: 'output-sensitivity', file: 'output-sensitivity', config: {}, small: { depths: [8, 16], seeds: [0] } },
  outputSensitivitySign: {
    experiment: 'output-sensitivity',
    file: 'output-sensitivity.sign_gradient',
    config: { perturbation_kind: 'sign_gradient' },
    small: { perturbation_kind: 'sign_gradient', depths: [8, 16], seeds: [0] },
  },
  adamFirstStep: { experiment: 'adam-first-step', file: 'adam-first-step', config: {}, small: { layers: 6, d: 64, d_ff: 256, steps: 20 } },
  // 120 toy runs at its defaults (tens of minutes in a browser; Recompute estimates it, cost.ts
  // experimentWork): a live run is the small setting unless unticked.
  warmupLength: {
    experiment: 'warmup-length',
    file: 'warmup-length.summary',
    config: {},
    small: { layers: 6, d: 128, d_ff: 512, steps: 400, warmups: [0, 100], seeds: [0], optimizers: ['adam', 'radam', 'sgd'], lr_factors: [1] },
  },
  stepSize: { experiment: 'step-size', file: 'step-size', config: {}, small: { depths: [2, 8], seeds: [0] } },
  plateauShare: {
    experiment: 'plateau-share',
    file: 'plateau-share',
    config: {},
    small: { layers: 6, d: 64, d_ff: 256, batch: 2, seq: 32, steps: 150, every: 10, warmups: [0, 90] },
  },
  tiedOutput: {
    experiment: 'tied-output',
    file: 'tied-output',
    config: {},
    small: { d: 64, d_ff: 128, vocab: 200, depths: [4, 6, 8], seeds: [0], depth_batches: 5 },
  },
  depthFactors: { experiment: 'depth-factors', file: 'depth-factors', config: {}, small: { layers: 6, d: 64, d_ff: 128, vocab: 200, seeds: [0], batches: 2 } },
} as const satisfies Record<string, { experiment: string; file: string; config: Record<string, unknown>; small: Record<string, unknown> }>;
export type ExperimentSlot = keyof typeof EXPERIMENT_SLOTS;

/** A small setting's values for its label ({depths}, {seeds}, {d}, {layers}, {steps}). */
export const smallVars = (c: {
  depths?: readonly number[];
  seeds?: readonly number[];
  d?: number;
  layers?: number;
  steps?: number;
}): Record<string, string | number> => ({
  depths: (c.depths ?? []).join(', '),
  seeds: c.seeds?.length ?? '',
  d: c.d ?? '',
  layers: c.layers ?? '',
  steps: c.steps ?? '',
});

/** The result slots, by name (a figure says which one it draws: figures/types.ts). */
export type SlotName = 'probe' | 'grid' | ExperimentSlot;

/** Every slot's name, in the page's order. */
export const SLOT_NAMES: readonly SlotName[] = ['probe', 'grid', ...(Object.keys(EXPERIMENT_SLOTS) as ExperimentSlot[])];

/** Where a slot's precomputed document is, under the site's base (public/ in the repository). */
export const precomputedPath = (name: SlotName): string =>
  name === 'probe' || name === 'grid' ? `data/${name}.json` : `data/exp/${EXPERIMENT_SLOTS[name].file}.json`;
