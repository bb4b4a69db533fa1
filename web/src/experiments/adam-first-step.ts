// adam-first-step.ts — the `adam-first-step` experiment: per run (placement × optimizer), the first
// steps of a toy run. Two slots: Figure C's (Adam, Post-LN and Pre-LN: the claim that the first step
// is ≈ lr·sign(g) whatever the gradient's scale) and its counterfactuals' (fig17: the ReZero gate,
// whose branch weights have no gradient at step 1, and GI-Adam, v₀ = g₁²), judged by
// verdicts.js adamFirstStep and adamFirstStepCounterfactual.
import { PLACEMENT_PRESETS } from '../generated/engine-schema';
import * as V from './verdicts.js';
import { list, num, obj, slots, str, type ExperimentDoc } from './types';

const firstStep = obj({ loss_before: num, loss_after: num, loss_change: num, grad_l1: num, predicted_sign_step: num, predicted_linear: num });
const shape = obj({
  runs: list(
    obj({
      placement: str,
      optimizer: str,
      status: str,
      update_rms: list(num),
      grad_norm: list(num),
      lr_schedule: list(num),
      tensors: list(obj({ name: str, size: num, grad_rms1: num, zero_grad_share1: num, step_over_lr: list(num) })),
      first_step: firstStep,
    }),
  ),
});
export type AdamFirstStepResult = ExperimentDoc<typeof shape>;
declare module './types' {
  interface ExperimentSlots {
    adamFirstStep: AdamFirstStepResult;
    adamFirstStepCf: AdamFirstStepResult;
  }
}

/** The ReZero preset's spec (wasm/placements/presets/rezero.json, through the generated schema). */
const rezero = PLACEMENT_PRESETS.find((p) => p.name === 'rezero')!.spec;

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
  // the counterfactuals: Post-LN, Pre-LN and ReZero, each under Adam and GI-Adam
  adamFirstStepCf: {
    experiment: 'adam-first-step',
    file: 'adam-first-step.counterfactual',
    config: { placements: ['post', 'pre', 'rezero'], placement_spec: rezero, optimizers: ['adam', 'gi-adam'] },
    small: { layers: 6, d: 64, d_ff: 256, steps: 10 },
    settings: { url: 'fig17', fields: ['placements', 'optimizers', 'layers', 'd', 'steps'] },
    shape,
    verdict: V.adamFirstStepCounterfactual,
  },
});
