// adam-first-step.ts — the `adam-first-step` experiment (Figure C): per placement, the first steps of
// a toy run.
import * as V from './verdicts.js';
import { list, num, obj, record, slots, str, type ExperimentDoc } from './types';

const firstStep = obj({ loss_before: num, loss_after: num, loss_change: num, grad_l1: num, predicted_sign_step: num, predicted_linear: num });
const shape = obj({
  placements: record(
    obj({
      status: str,
      update_rms: list(num),
      grad_norm: list(num),
      lr_schedule: list(num),
      tensors: list(obj({ name: str, size: num, step_over_lr: list(num) })),
      first_step: firstStep,
    }),
  ),
});
export type AdamFirstStepResult = ExperimentDoc<typeof shape>;
declare module './types' {
  interface ExperimentSlots {
    adamFirstStep: AdamFirstStepResult;
  }
}

export default slots({
  adamFirstStep: {
    experiment: 'adam-first-step',
    file: 'adam-first-step',
    config: {},
    small: { layers: 6, d: 64, d_ff: 256, steps: 20 },
    settings: { url: 'fig7', fields: ['placements', 'layers', 'd', 'steps'] },
    shape,
    verdict: V.adamFirstStep,
  },
});
