// plateau-share.ts — the `plateau-share` experiment (Figure H): per run, the token-specific share per
// layer at every recording.
import * as V from './verdicts.js';
import { list, num, obj, slots, str, type ExperimentDoc } from './types';

const shape = obj({
  plateau_entropy: num,
  runs: list(obj({ placement: str, warmup: num, status: str, at: list(num), share: list(list(num)), loss: list(num) })),
});
export type PlateauShareResult = ExperimentDoc<typeof shape>;
declare module './types' {
  interface ExperimentSlots {
    plateauShare: PlateauShareResult;
  }
}

export default slots({
  plateauShare: {
    experiment: 'plateau-share',
    file: 'plateau-share',
    config: {},
    small: { layers: 6, d: 64, d_ff: 256, batch: 2, seq: 32, steps: 150, warmups: [0, 90] },
    settings: { url: 'fig9', fields: ['placements', 'warmups', 'steps', 'layers', 'd'] },
    shape,
    verdict: V.plateauShare,
  },
});
