// tied-output.ts — the `tied-output` experiment (Figure A): Figure 3c for tied/untied output × √d/no
// input scale.
import * as V from './verdicts.js';
import { list, meanStd, nullable, num, obj, oneOf, record, seedStat, slots, type ExperimentDoc } from './types';

const depth = obj({ layers: num, W2_per_batch: meanStd, W2_per_layer: meanStd, p_current: seedStat });
const shape = obj({
  uniform_p: num,
  variants: list(
    obj({
      output: oneOf('tied', 'untied'),
      input_scale: oneOf('sqrt_d', 'none'),
      placements: record(obj({ depths: list(depth), slope_per_batch: nullable(num) })),
    }),
  ),
});
export type TiedOutputResult = ExperimentDoc<typeof shape>;
declare module './types' {
  interface ExperimentSlots {
    tiedOutput: TiedOutputResult;
  }
}

export default slots({
  tiedOutput: {
    experiment: 'tied-output',
    file: 'tied-output',
    config: {},
    small: { d: 64, d_ff: 128, vocab: 200, depths: [4, 6, 8], seeds: [0] },
    settings: { url: 'fig6', fields: ['placements', 'depths', 'seeds', 'd'] },
    shape,
    verdict: V.tiedOutput,
  },
});
