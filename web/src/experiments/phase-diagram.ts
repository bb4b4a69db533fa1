// phase-diagram.ts — the `phase-diagram` experiment (docs/experiments.md): toy runs classified
// trained / plateau / diverged, in three slots: the trainability phase diagram itself (depth × peak
// lr × warm-up per placement, at the quick-look model), and two slices at the article's Figure-4
// toy that test its claims 9 (Pre-LN's warm-up as insurance) and 10 (DeepNorm without warm-up).
import * as V from './verdicts.js';
import { list, nullable, num, obj, oneOf, slots, str, type ExperimentDoc } from './types';
import { GRID_FIELDS } from '../generated/engine-schema';

const run = obj({
  seed: num,
  outcome: oneOf('trained', 'plateau', 'diverged'),
  stopped: oneOf('end', 'settled', 'nan', 'diverged'),
  escape_step: nullable(num),
  stop_step: num,
  final_loss: nullable(num),
  every: num,
  curve: list(num),
});
const shape = obj({
  plateau_entropy: num,
  uniform_loss: num,
  divergence_loss: num,
  escape: obj({ window: num, margin: num }),
  cells: list(
    obj({
      placement: str,
      warmup: num,
      layers: num,
      lr: num,
      outcome: oneOf('trained', 'plateau', 'diverged', 'mixed'),
      counts: obj({ trained: num, plateau: num, diverged: num }),
      escape_step: nullable(num),
      final_loss: nullable(num),
      runs: list(run),
    }),
  ),
});
export type PhaseDiagramResult = ExperimentDoc<typeof shape>;
export type PhaseCell = PhaseDiagramResult['cells'][number];
export type PhaseRun = PhaseCell['runs'][number];
declare module './types' {
  interface ExperimentSlots {
    phaseDiagram: PhaseDiagramResult;
    deepNorm: PhaseDiagramResult;
    preWarmup: PhaseDiagramResult;
  }
}

/** The article's Figure-4 toy, the grid's defaults (8 layers of width 128, 8 × 64 tokens per step,
 *  500 steps), at one seed (two would not finish on the shared machine before the session's
 *  deadline: docs/experiments.md). */
const G = GRID_FIELDS;
const FIGURE4 = { depths: [G.layers.default], seq: G.seq.default, batch: G.batch.default, steps: G.steps.default, seeds: [0] };

export default slots({
  // Claim 10: DeepNorm beside Post-LN and Pre-LN, without warm-up and with Figure 4's warm-up (300), at
  // Figure 4's peak lrs (its Post-LN and Pre-LN runs are Figure 4's, stopped once settled).
  deepNorm: {
    experiment: 'phase-diagram',
    file: 'phase-diagram.deepnorm',
    config: { ...FIGURE4, placements: ['post', 'pre', 'deepnorm'], lrs: G.lrs.default, warmups: G.warmups.default },
    // the quick setting (scripts/quick-settings-search.mjs deepNorm, docs/reproduction.md): batches of
    // 2 × 32 tokens, the runs without warm-up alone (the ones the rule reads); 6% of the reference's cost
    small: { batch: 2, seq: 32, warmups: [0] },
    settings: { url: 'fig13', fields: ['placements', 'lrs', 'warmups', 'seeds', 'steps'] },
    shape,
    verdict: V.deepNormNoWarmup,
  },
  // Claim 9: Pre-LN over peak lrs 1e-3 … 3e-2 without warm-up and with 100 steps, every run to its
  // last step (the final losses are compared).
  preWarmup: {
    experiment: 'phase-diagram',
    file: 'phase-diagram.pre-warmup',
    config: { ...FIGURE4, placements: ['pre'], lrs: [1e-3, 3e-3, 1e-2, 3e-2], warmups: [0, 100], early_exit: 'off' },
    // the quick setting (scripts/quick-settings-search.mjs preWarmup, docs/reproduction.md): batches of
    // 2 × 32 tokens, the smallest and the largest lr; 6% of the reference's cost
    small: { batch: 2, seq: 32, lrs: [1e-3, 3e-2] },
    settings: { url: 'fig14', fields: ['lrs', 'warmups', 'seeds', 'steps', 'depths'] },
    shape,
    verdict: V.preWarmup,
  },
  // The phase diagram at the engine's defaults (four placements × warm-ups 0, 100 × depths 2–16 ×
  // peak lrs 1e-3 … 0.1 × seed 0, the quick-look model, early exit). Its quick map: the reference's
  // cells at depths 2 and 8 and lrs 1e-3, 1e-2, 0.1 (the same runs: the same numbers).
  phaseDiagram: {
    experiment: 'phase-diagram',
    file: 'phase-diagram',
    config: {},
    small: { depths: [2, 8], lrs: [1e-3, 1e-2, 0.1] },
    settings: { url: 'fig15', fields: ['placements', 'depths', 'lrs', 'warmups', 'seeds', 'steps'] },
    smallFirst: true,
    shape,
  },
});

// ---- reading a document (pure; the figures, the prose numbers and the scripts share these) ----
/** The outcome a cell can have: its seeds' majority, or 'mixed'. */
export const OUTCOMES = ['trained', 'plateau', 'diverged', 'mixed'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The placements a document's cells hold, in the order they first appear (the config's). */
export const phasePlacements = (doc: Pick<PhaseDiagramResult, 'cells'> | null | undefined): string[] => [
  ...new Set((doc?.cells ?? []).map((c) => c.placement)),
];

/** How many of a placement's cells at one warm-up had each outcome, and how many cells there are. */
export function phaseTally(
  doc: Pick<PhaseDiagramResult, 'cells'> | null | undefined,
  placement: string,
  warmup: number,
): Record<Outcome, number> & { cells: number } {
  const out = { trained: 0, plateau: 0, diverged: 0, mixed: 0, cells: 0 };
  for (const c of doc?.cells ?? [])
    if (c.placement === placement && c.warmup === warmup) {
      out[c.outcome] += 1;
      out.cells += 1;
    }
  return out;
}

/** The steps a run recorded a loss for (a run the trainer stopped has none for its stopping step). */
export const recordedSteps = (r: Pick<PhaseRun, 'stopped' | 'stop_step'>): number =>
  r.stopped === 'nan' || r.stopped === 'diverged' ? r.stop_step - 1 : r.stop_step;

/** A run's decimated loss curve as points: point k is the mean of the losses of steps
 *  k·every + 1 … (k + 1)·every (the last bucket may be shorter), drawn at the bucket's last step. */
export const runCurve = (r: Pick<PhaseRun, 'stopped' | 'stop_step' | 'every' | 'curve'>): { x: number; y: number }[] => {
  const n = recordedSteps(r);
  return r.curve.map((y, k) => ({ x: Math.min((k + 1) * r.every, n), y }));
};
