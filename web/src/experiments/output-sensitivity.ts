// output-sensitivity.ts — the `output-sensitivity` experiment (Figure E): per placement, the logits'
// mean squared change against depth, for a random perturbation and for Adam's sign step.
import * as V from './verdicts.js';
import { list, nullable, num, obj, record, seedStat, slots, type ExperimentDoc } from './types';

const shape = obj({ placements: record(obj({ depths: list(obj({ layers: num, dlogits2: seedStat })), slope: nullable(num), growth: nullable(num) })) });
export type OutputSensitivityResult = ExperimentDoc<typeof shape>;
declare module './types' {
  interface ExperimentSlots {
    outputSensitivity: OutputSensitivityResult;
    outputSensitivitySign: OutputSensitivityResult;
  }
}

const small = { depths: [8, 16], seeds: [0] };
const fields = ['placements', 'depths', 'seeds', 'd'];
export default slots({
  outputSensitivity: {
    experiment: 'output-sensitivity',
    file: 'output-sensitivity',
    config: {},
    small,
    settings: { url: 'fig5', fields },
    shape,
    verdict: V.outputSensitivity,
    verdictWith: 'outputSensitivitySign',
  },
  // Adam's sign step, drawn by the same figure (fig5.perturbation=sign): its settings apart
  outputSensitivitySign: {
    experiment: 'output-sensitivity',
    file: 'output-sensitivity.sign_gradient',
    config: { perturbation_kind: 'sign_gradient' },
    small,
    settings: { url: 'fig5.sign', fields },
    shape,
  },
});
