// lr-sensitivity.ts — the `lr-sensitivity` experiment (docs/experiments.md; Wortsman et al. 2023,
// arXiv 2309.14322): final loss against peak lr for Pre-LN with and without QK-norm (the engine's
// defaults: the `qknorm` preset is its default placement_spec), Wortsman et al.'s LR sensitivity,
// and the largest attention logit over steps; judged by verdicts.js lrSensitivity. Figure fig18.
import * as V from './verdicts.js';
import { list, nullable, num, obj, slots, str, type ExperimentDoc } from './types';

const shape = obj({
  plateau_entropy: num,
  uniform_loss: num,
  eval_batches: num,
  placements: list(
    obj({
      placement: str,
      loss0: num,
      best_loss: num,
      best_lr: num,
      sensitivity: num,
      sensitivity_per_seed: list(num),
      cells: list(obj({ lr: num, final_loss: nullable(num), capped_loss: num, stopped: num, max_logit: num, logit_at_init: num })),
    }),
  ),
  runs: list(
    obj({
      placement: str,
      lr: num,
      seed: num,
      status: str,
      stop_step: num,
      loss0: num,
      final_loss: nullable(num),
      at: list(num),
      max_logit: list(nullable(num)),
      curve_every: num,
      curve: list(num),
    }),
  ),
});
export type LrSensitivityResult = ExperimentDoc<typeof shape>;
declare module './types' {
  interface ExperimentSlots {
    lrSensitivity: LrSensitivityResult;
  }
}

export default slots({
  lrSensitivity: {
    experiment: 'lr-sensitivity',
    file: 'lr-sensitivity',
    config: {},
    // the cheapest candidate of scripts/quick-settings-search.mjs lrSensitivity whose verdict is the
    // reference's (docs/data/quick-settings-search.json: 0.8 s native)
    small: { layers: 2, d: 64, d_ff: 256, batch: 2, seq: 32, steps: 100, warmup: 5, lrs: [3e-4, 3e-3, 3e-2, 0.3] },
    settings: { url: 'fig18', fields: ['placements', 'lrs', 'seeds', 'warmup', 'steps', 'layers', 'd'] },
    shape,
    verdict: V.lrSensitivity,
  },
});
