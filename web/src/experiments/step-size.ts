// step-size.ts — the `step-size` experiment (Figure D): per placement, one entry per depth.
import * as V from './verdicts.js';
import { list, nullable, num, obj, record, seedStat, slots, type ExperimentDoc } from './types';

// the robust readings of one loss curve: the η near the best loss, and the largest that still lowers it
const reading = { eta_near_best: list(num), eta_max_useful: nullable(num) };

const shape = obj({
  placements: record(
    list(
      obj({
        layers: num,
        loss0: seedStat,
        loss: list(seedStat),
        eta_star: seedStat,
        eta_star_of_mean: num,
        ...reading,
        per_seed: list(obj(reading)),
        layer_dlogits2: list(seedStat),
      }),
    ),
  ),
});
export type StepSizeResult = ExperimentDoc<typeof shape>;
declare module './types' {
  interface ExperimentSlots {
    stepSize: StepSizeResult;
  }
}

export default slots({
  stepSize: {
    experiment: 'step-size',
    file: 'step-size',
    config: {},
    small: { depths: [4, 8], seeds: [0] },
    settings: { url: 'fig10', fields: ['placements', 'depths', 'seeds', 'd'] },
    shape,
    verdict: V.stepSize,
  },
});
