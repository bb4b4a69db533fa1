// depth-factors.ts — the `depth-factors` experiment (Figure B): Figure 3a at depth L, and per layer
// the norm's and the residual Jacobian's factors on the gradient (docs/experiments.md).
import * as V from './verdicts.js';
import { list, meanStdArr, num, obj, record, seedStat, slots, type ExperimentDoc } from './types';

const sublayer = obj({ norm_factor: seedStat, residual_factor: seedStat, factor: seedStat });
const shape = obj({
  layers: num,
  appendix_f_layer_factor: num,
  placements: record(
    obj({
      W2_per_batch: meanStdArr,
      W2_per_layer: meanStdArr,
      appendix_f_W2_per_batch: list(num),
      first_over_last: num,
      appendix_f_first_over_last: num,
      factors: list(obj({ layer: num, attention: sublayer, ffn: sublayer, layer_factor: seedStat })),
      geomean_per_layer: obj({ norm_factor: num, residual_factor: num, factor: num }),
    }),
  ),
});
export type DepthFactorsResult = ExperimentDoc<typeof shape>;
declare module './types' {
  interface ExperimentSlots {
    depthFactors: DepthFactorsResult;
  }
}

export default slots({
  depthFactors: {
    experiment: 'depth-factors',
    file: 'depth-factors',
    config: {},
    small: { layers: 6, d: 64, d_ff: 128, vocab: 200, seeds: [0], batches: 2 },
    settings: { url: 'fig11', fields: ['placements', 'layers', 'seeds', 'batches', 'd'] },
    shape,
    verdict: V.depthFactors,
  },
});
