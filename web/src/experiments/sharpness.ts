// sharpness.ts — the `sharpness` experiment (Figure F, beside the Adam section's paragraph on why
// warm-up helps): per run (placement, optimizer, warm-up, seed), Adam's preconditioned sharpness
// λ_max(P⁻¹H) at the measured steps against the optimizer's stability threshold, and the loss.
// Its two claims (warm-up keeps Adam under the threshold; GI-Adam removes the need for warm-up) are
// judged by verdicts.js sharpnessWarmup and sharpnessGiAdam.
import * as V from './verdicts.js';
import { list, num, obj, slots, str, type ExperimentDoc } from './types';

const shape = obj({
  plateau_entropy: num,
  runs: list(
    obj({
      placement: str,
      optimizer: str,
      warmup: num,
      seed: num,
      status: str,
      stop_step: num,
      steps: list(num),
      sharpness: list(num),
      threshold: list(num),
      lr: list(num),
      iterations: list(num),
      converged: list(num),
      fd_step: list(num),
      loss: list(num),
    }),
  ),
});
export type SharpnessResult = ExperimentDoc<typeof shape>;
declare module './types' {
  interface ExperimentSlots {
    sharpness: SharpnessResult;
  }
}

export default slots({
  sharpness: {
    experiment: 'sharpness',
    file: 'sharpness',
    config: {},
    small: { d: 64, d_ff: 256, steps: 25, every: 10, seeds: [0] },
    settings: { url: 'fig12', fields: ['placements', 'optimizers', 'warmups', 'seeds', 'steps', 'd'] },
    // the reference run is 16 runs with 176 Lanczos estimates (7 min 41 s of CPU in wasm-mt, and its
    // cost is not modelled in lib/cost.ts, so Recompute gives no estimate): the small setting first
    smallFirst: true,
    shape,
    verdict: V.sharpnessWarmup,
    // its document carries a second claim: GI-Adam instead of warm-up
    alsoVerdicts: { gi: V.sharpnessGiAdam },
  },
});
