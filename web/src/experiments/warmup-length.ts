// warmup-length.ts — the `warmup-length` experiment (Figure G; the page loads its summary, the runs
// without their loss curves): escape steps per placement, optimizer, warm-up and lr.
import * as V from './verdicts.js';
import { list, nullable, num, obj, optional, slots, str, type ExperimentDoc } from './types';

const shape = obj({
  plateau_entropy: num,
  runs: list(obj({ placement: str, optimizer: str, warmup: num, lr: num, seed: num, status: str, escape_step: nullable(num), loss: optional(list(num)) })),
  groups: list(obj({ placement: str, optimizer: str, warmup: num, lr: num, seeds_ok: num, escape_step: nullable(num) })),
  radam_rectification: list(num),
});
export type WarmupLengthResult = ExperimentDoc<typeof shape>;
declare module './types' {
  interface ExperimentSlots {
    warmupLength: WarmupLengthResult;
  }
}

export default slots({
  // 120 toy runs at its defaults (tens of minutes in a browser; Recompute estimates it, cost.ts
  // experimentWork): a live run is the small setting unless unticked.
  warmupLength: {
    experiment: 'warmup-length',
    file: 'warmup-length.summary',
    // the page draws the escape steps, not the 120 loss curves: each run without its `loss`
    summarize: (doc: WarmupLengthResult) => ({
      ...doc,
      runs: doc.runs.map(({ loss, ...r }) => ({ ...r, steps_done: loss?.length ?? 0 })),
    }),
    config: {},
    small: { warmups: [0, 100], seeds: [0], lr_factors: [1] },
    settings: { url: 'fig8', fields: ['placements', 'optimizers', 'warmups', 'lr_factors', 'seeds', 'steps', 'layers', 'd'] },
    smallFirst: true,
    shape,
    verdict: V.warmupLength,
    // its document carries a second claim: the SGD control
    alsoVerdicts: { sgd: V.sgdControl },
  },
});
