// fixtures.ts — small synthetic engine documents for unit tests (round numbers chosen so expected
// values are easy to compute by hand; they are not measurements).
import type { GridResult, GridRunDoc, ProbeResult, ProbeStats } from '../../web/src/engine/documents';
import type { RunEntry } from '../../web/src/lib/runs/entry';
import type { AdamFirstStepResult } from '../../web/src/experiments/adam-first-step';
import type { DepthFactorsResult } from '../../web/src/experiments/depth-factors';
import type { OutputSensitivityResult } from '../../web/src/experiments/output-sensitivity';
import type { LrSensitivityResult } from '../../web/src/experiments/lr-sensitivity';
import type { PhaseCell, PhaseDiagramResult } from '../../web/src/experiments/phase-diagram';
import type { PlateauShareResult } from '../../web/src/experiments/plateau-share';
import type { RealTextResult } from '../../web/src/experiments/real-text';
import type { AngularUpdateResult } from '../../web/src/experiments/angular-update';
import type { SharpnessResult } from '../../web/src/experiments/sharpness';
import type { StepSizeResult } from '../../web/src/experiments/step-size';
import type { TiedOutputResult } from '../../web/src/experiments/tied-output';
import type { WarmupLengthResult } from '../../web/src/experiments/warmup-length';
import { GRID_DEFAULTS, PROBE_DEFAULTS } from '../../web/src/generated/engine-schema';

const engine = { version: '0.1.0', build: 'native' as const, threads: 1 };

function stats(over: Partial<ProbeStats>): ProbeStats {
  return {
    W2_per_layer: { mean: [0.5, 0.5, 0.5], std: [0.01, 0.02, 0.03] },
    W2_per_batch: { mean: [1, 1.2, 1.1], std: [0.1, 0.1, 0.1] },
    norm2_over_d: { mean: [1.5, 1.5, 1.5], std: [0.01, 0.04, 0.02] },
    final_ln_gain: { mean: 0.8, std: 0.01 },
    lemma2_band: { lo: [1.5, 2, 2.5], hi: [2.5, 4, 5.5] },
    lastW2_vs_L: {},
    ...over,
  };
}

/** A 3-layer probe with depths 6, 8, 10: Pre < Post first at depth 8. */
export function probe(): ProbeResult {
  return {
    engine,
    config: { ...PROBE_DEFAULTS, layers: 3, d: 64, d_ff: 128, vocab: 100, seq: 8, batch: 2, seeds: [0, 1], batches: 2, depth_batches: 1, depths: [6, 8, 10] },
    placements: {
      post: stats({
        lastW2_vs_L: {
          '6': { W2_per_layer: { mean: 0.5, std: 0 }, W2_per_batch: { mean: 1, std: 0.1 } },
          '8': { W2_per_layer: { mean: 0.5, std: 0 }, W2_per_batch: { mean: 1, std: 0.1 } },
          '10': { W2_per_layer: { mean: 0.5, std: 0 }, W2_per_batch: { mean: 1, std: 0.1 } },
        },
      }),
      pre: stats({
        W2_per_batch: { mean: [4, 3, 2], std: [0.1, 0.1, 0.1] },
        norm2_over_d: { mean: [2, 3, 4], std: [0.1, 0.1, 0.1] },
        final_ln_gain: { mean: 0.5, std: 0.02 },
        lastW2_vs_L: {
          '10': { W2_per_layer: { mean: 0.2, std: 0 }, W2_per_batch: { mean: 0.4, std: 0.05 } },
          '6': { W2_per_layer: { mean: 0.8, std: 0 }, W2_per_batch: { mean: 1.6, std: 0.1 } },
          '8': { W2_per_layer: { mean: 0.4, std: 0 }, W2_per_batch: { mean: 0.8, std: 0.1 } },
        },
      }),
    },
  };
}

export function run(over: Partial<GridRunDoc> & Pick<GridRunDoc, 'placement' | 'warmup' | 'lr' | 'seed' | 'loss'>): GridRunDoc {
  return {
    status: 'ok',
    stop_step: null,
    from: 0,
    grad_norm: over.loss.map(() => 1),
    lr_schedule: over.loss.map(() => over.lr),
    ...over,
  };
}

/** A loss curve of n steps: `a` until step `drop` (1-based, exclusive), then `b`. */
export const curve = (n: number, a: number, b: number, drop: number): number[] => Array.from({ length: n }, (_, i) => (i + 1 < drop ? a : b));

/** A grid of 200 steps, lrs 0.001/0.003, warm-ups 0/100, seeds 0/1. plateau 5, optimal 1 (mid 3). */
export function grid(): GridResult {
  const n = 200;
  const runs: GridRunDoc[] = [];
  for (const norm of ['post', 'pre'] as const)
    for (const warmup of [0, 100])
      for (const lr of [0.001, 0.003])
        for (const seed of [0, 1]) {
          let loss: number[];
          if (norm === 'post') loss = warmup && lr === 0.001 ? curve(n, 5, 2, 150 + seed * 10) : curve(n, 5, 5, n + 1);
          else loss = curve(n, 5, 1.5 + seed * 0.1, warmup ? 90 : 40);
          runs.push(run({ placement: norm, warmup, lr, seed, loss }));
        }
  return {
    engine,
    config: { ...GRID_DEFAULTS, placements: ['post', 'pre'], warmups: [0, 100], lrs: [0.001, 0.003], seeds: [0, 1], steps: n },
    plateau_entropy: 5,
    optimal_loss: 1,
    uniform_loss: 5.5,
    progress: 1,
    runs,
  };
}

/** A small output-sensitivity document (docs/experiments.md): three placements, depths 2, 4, 8. */
export function outputSensitivity(kind: 'random' | 'sign_gradient' = 'random'): OutputSensitivityResult {
  const cell = (layers: number, mean: number) => ({ layers, dlogits2: { mean, std: mean / 10, per_seed: [mean * 0.9, mean * 1.1] } });
  return {
    experiment: 'output-sensitivity',
    engine: { version: '0.1.0', build: 'wasm-mt', threads: 2 },
    config: { d: 128, depths: [2, 4, 8], seeds: [0, 1], perturbation: 0.001, perturbation_kind: kind, placements: ['post', 'pre', 'admin'] },
    placements: {
      post: { depths: [cell(2, 1e-3), cell(4, 2e-3), cell(8, 4e-3)], slope: 1, growth: 4 },
      pre: { depths: [cell(2, 1e-3), cell(4, 1.5e-3), cell(8, 2e-3)], slope: 0.5, growth: 2 },
      admin: { depths: [cell(2, 8e-4), cell(4, 1e-3), cell(8, 1.2e-3)], slope: 0.29, growth: 1.5 },
    },
  };
}

/** A small tied-output document: four variants, Post-LN and Pre-LN, depths 6 and 12. */
export function tiedOutput(): TiedOutputResult {
  const cell = (layers: number, g: number, p: number) => ({
    layers,
    W2_per_batch: { mean: g, std: g / 10 },
    W2_per_layer: { mean: g / 2, std: g / 20 },
    p_current: { mean: p, std: p / 10, per_seed: [p, p] },
  });
  const variant = (output: 'tied' | 'untied', input_scale: 'sqrt_d' | 'none', fast: boolean) => ({
    output,
    input_scale,
    placements: {
      post: { depths: [cell(6, 1.1, 0.01), cell(12, 1.1, 0.002)], slope_per_batch: 0 },
      pre: { depths: [cell(6, 1.6, fast ? 0.8 : 0.001), cell(12, fast ? 0.5 : 1.6 * Math.SQRT1_2, fast ? 0.3 : 0.001)], slope_per_batch: fast ? -1.7 : -0.5 },
    },
  });
  return {
    experiment: 'tied-output',
    engine: { version: '0.1.0', build: 'wasm-mt', threads: 2 },
    config: { d: 512, depths: [6, 12], seeds: [0, 1], placements: ['post', 'pre'] },
    uniform_p: 0.001,
    variants: [variant('tied', 'sqrt_d', true), variant('tied', 'none', false), variant('untied', 'sqrt_d', false), variant('untied', 'none', false)],
  };
}

/** A small adam-first-step document: Post-LN and Pre-LN, 3 steps. */
export function adamFirstStep(): AdamFirstStepResult {
  const s = (placement: string, g: number[], r: number[]) => ({
    placement,
    optimizer: 'adam',
    status: 'ok',
    update_rms: r,
    grad_norm: g,
    lr_schedule: [1e-3, 1e-3, 1e-3],
    tensors: [{ name: 'E', size: 10, grad_rms1: 1e-3, zero_grad_share1: 0, step_over_lr: r }],
    first_step: { loss_before: 6, loss_after: 5.5, loss_change: -0.5, grad_l1: 1000, predicted_sign_step: -1, predicted_linear: -1 },
  });
  return {
    experiment: 'adam-first-step',
    engine: { version: '0.1.0', build: 'wasm-mt', threads: 2 },
    config: { layers: 8, lr: 1e-3, steps: 3, placements: ['post', 'pre'] },
    runs: [s('post', [2.6, 2.2, 1.5], [0.99, 0.7, 0.05]), s('pre', [1.76, 1.2, 1.0], [1, 0.73, 0.27])],
  };
}

/** A small adam-first-step counterfactual document: Post-LN, Pre-LN and ReZero (its branch weight W
 *  with no gradient at step 1) under Adam and GI-Adam, 3 steps. */
export function adamFirstStepCf(): AdamFirstStepResult {
  const s = (placement: string, optimizer: string, g1: number, scale: number) => {
    const gated = placement === 'rezero';
    const r = [scale * (gated ? 0.3 : 1), 0.7, 0.6];
    return {
      placement,
      optimizer,
      status: 'ok',
      update_rms: r,
      grad_norm: [g1, 1.2, 1.0],
      lr_schedule: [1e-3, 1e-3, 1e-3],
      tensors: [
        { name: 'E', size: 10, grad_rms1: 1e-3, zero_grad_share1: 0, step_over_lr: [scale, 0.7, 0.6] },
        { name: 'layer1.bk', size: 2, grad_rms1: 5e-10, zero_grad_share1: 0, step_over_lr: [0.05, 0.03, 0.03] },
        ...(gated ? [{ name: 'layer1.W1', size: 90, grad_rms1: 0, zero_grad_share1: 1, step_over_lr: [0, 0.7, 0.6] }] : []),
      ],
      first_step: { loss_before: 6, loss_after: 5.5, loss_change: -0.5, grad_l1: 1000, predicted_sign_step: -1, predicted_linear: -1 },
    };
  };
  return {
    experiment: 'adam-first-step',
    engine: { version: '0.1.0', build: 'wasm-mt', threads: 2 },
    config: { layers: 8, lr: 1e-3, steps: 3, beta2: 0.98, eps: 1e-8, placements: ['post', 'pre', 'rezero'], optimizers: ['adam', 'gi-adam'] },
    runs: [
      s('post', 'adam', 2.6, 1),
      s('post', 'gi-adam', 2.6, Math.sqrt(0.02)),
      s('pre', 'adam', 1.7, 1),
      s('pre', 'gi-adam', 1.7, Math.sqrt(0.02)),
      s('rezero', 'adam', 0.7, 1),
      s('rezero', 'gi-adam', 0.7, Math.sqrt(0.02)),
    ],
  };
}

/** A small real-text document: English and Chinese, Post-LN and Pre-LN, warm-ups 0 and 2, one seed, 4 steps. */
export function realText(): RealTextResult {
  const r = (lang: string, placement: string, warmup: number, loss: number[]) => ({
    lang,
    placement,
    warmup,
    seed: 0,
    status: 'ok',
    escape_step: null,
    loss,
    val_step: [2, 4],
    val_loss: [loss[1], loss[3]],
  });
  const runs = ['en', 'zh'].flatMap((lang) => [
    r(lang, 'post', 0, [5.5, 4.4, 4.3, 4.3]),
    r(lang, 'post', 2, [5.5, 5.0, 3.5, 3.0]),
    r(lang, 'pre', 0, [5.5, 3.2, 2.9, 2.8]),
    r(lang, 'pre', 2, [5.5, 4.6, 3.1, 2.9]),
  ]);
  return {
    experiment: 'real-text',
    engine: { version: '0.1.0', build: 'wasm-mt', threads: 2 },
    config: { layers: 6, steps: 4, langs: ['en', 'zh'], placements: ['post', 'pre'], warmups: [0, 2], seeds: [0] },
    texts: ['en', 'zh'].map((lang) => ({
      lang,
      unigram_entropy: 4.4,
      parts: [{ lang, bytes: 1000, fnv1a64: '0123456789abcdef', train_bytes: 900, held_out_bytes: 100 }],
    })),
    uniform_loss: Math.log(256),
    runs,
    groups: runs.map((x) => ({ lang: x.lang, placement: x.placement, warmup: x.warmup, seeds_ok: 1, escape_step: null, final_val: x.val_loss[1] })),
  };
}

/** A small warmup-length summary: Post-LN and Pre-LN with Adam, warm-ups 0 and 100, two lrs. */
export function warmupLength(): WarmupLengthResult {
  const g = (placement: string, warmup: number, lr: number, escape_step: number | null) => ({
    placement,
    optimizer: 'adam',
    warmup,
    lr,
    seeds_ok: 2,
    escape_step,
  });
  return {
    experiment: 'warmup-length',
    engine: { version: '0.1.0', build: 'wasm-mt', threads: 2 },
    config: { steps: 400, placements: ['post', 'pre'], seeds: [0, 1] },
    plateau_entropy: 5.36,
    runs: [],
    groups: [
      g('post', 0, 1e-3, null),
      g('post', 100, 1e-3, 190),
      g('pre', 0, 1e-3, 54),
      g('pre', 100, 1e-3, 90),
      g('post', 0, 3e-3, null),
      g('post', 100, 3e-3, null),
      g('pre', 0, 3e-3, 45),
      g('pre', 100, 3e-3, 64),
    ],
    radam_rectification: [0, 0, 0],
  };
}

/** A small plateau-share document: two runs, 2 layers, 3 recordings. */
export function plateauShare(): PlateauShareResult {
  return {
    experiment: 'plateau-share',
    engine: { version: '0.1.0', build: 'wasm-mt', threads: 2 },
    config: { steps: 20, every: 10, seed: 0, placements: ['post', 'pre'], warmups: [0] },
    plateau_entropy: 5.36,
    runs: [
      {
        placement: 'post',
        warmup: 0,
        status: 'ok',
        at: [0, 10, 20],
        share: [
          [0.9, 0.2],
          [0.5, 0.01],
          [0.4, 0],
        ],
        loss: [6, 5.5, 5.4],
      },
      {
        placement: 'pre',
        warmup: 0,
        status: 'ok',
        at: [0, 10, 20],
        share: [
          [0.9, 0.5],
          [0.9, 0.8],
          [0.95, 0.95],
        ],
        loss: [6, 4, 2],
      },
    ],
  };
}

/** A small step-size document: Post-LN and Pre-LN at depths 2 and 8. */
export function stepSize(): StepSizeResult {
  const st = (mean: number) => ({ mean, std: 0, per_seed: [mean] });
  const cell = (layers: number, eta: number, perLayer: number) => ({
    layers,
    loss0: st(6),
    loss: [st(6), st(5.5)],
    eta_star: st(eta),
    eta_star_of_mean: eta,
    eta_near_best: [eta, eta],
    eta_max_useful: eta,
    per_seed: [{ eta_near_best: [eta, eta], eta_max_useful: eta }],
    layer_dlogits2: Array.from({ length: layers }, () => st(perLayer)),
  });
  return {
    experiment: 'step-size',
    engine: { version: '0.1.0', build: 'wasm-mt', threads: 2 },
    config: { etas: [1e-4, 1e-3, 3e-2], depths: [2, 8], seeds: [0], placements: ['post', 'pre'], eta_margin: 0.01, eta_min_gain: 0.05 },
    placements: { post: [cell(2, 0.03, 0.03), cell(8, 0.001, 0.12)], pre: [cell(2, 0.03, 0.02), cell(8, 0.005, 0.024)] },
  };
}

/** A small depth-factors document: Post-LN and Pre-LN at 3 layers. Post-LN: norm factors 0.8 and 0.9,
 *  residual factors 1.25 and 1.1 per sublayer (a layer: 0.72 and 1.375); flat W² gradients. */
export function depthFactors(): DepthFactorsResult {
  const st = (mean: number, std = 0.01) => ({ mean, std, per_seed: [mean - std, mean + std] });
  const layer = (l: number, norm: [number, number], res: [number, number], whole: number) => ({
    layer: l,
    attention: { norm_factor: st(norm[0]), residual_factor: st(res[0]), factor: st(norm[0] * res[0]) },
    ffn: { norm_factor: st(norm[1]), residual_factor: st(res[1]), factor: st(norm[1] * res[1]) },
    layer_factor: st(whole),
  });
  const rF = (2 / 3) ** 1;
  // a placement: its W² means per batch and per layer, first / last, its layers' factors and their geomeans
  const placement = (
    perBatch: number[],
    perLayer: number[],
    firstOverLast: number,
    norm: [number, number],
    res: [number, number],
    whole: number,
    geomean: { norm_factor: number; residual_factor: number; factor: number },
  ) => ({
    W2_per_batch: { mean: perBatch, std: [0.1, 0.1, 0.1] },
    W2_per_layer: { mean: perLayer, std: [0.05, 0.05, 0.05] },
    appendix_f_W2_per_batch: [rF, Math.sqrt(2 / 3), 1],
    first_over_last: firstOverLast,
    appendix_f_first_over_last: rF,
    factors: [1, 2, 3].map((l) => layer(l, norm, res, whole)),
    geomean_per_layer: geomean,
  });
  return {
    experiment: 'depth-factors',
    engine: { version: '0.1.0', build: 'wasm-mt', threads: 2 },
    config: { layers: 3, d: 512, seeds: [0, 1], batches: 10, placements: ['post', 'pre'] },
    layers: 3,
    appendix_f_layer_factor: Math.sqrt(2 / 3),
    placements: {
      post: placement([1, 1.1, 1], [0.5, 0.55, 0.5], 1, [0.9, 0.8], [1.1, 1.25], 0.99, { norm_factor: 0.72, residual_factor: 1.375, factor: 0.99 }),
      pre: placement([2, 1.5, 1], [1, 0.7, 0.5], 2, [1, 1], [1.1, 1.2], 1.32, { norm_factor: 1, residual_factor: 1.32, factor: 1.32 }),
    },
  };
}

/** A small phase-diagram document: `placements` at depths 2 and 8, peak lrs 1e-3 and 1e-2, warm-ups 0
 *  and 100, seeds 0 and 1, 300 steps. Post-LN trains only at depth 2 without warm-up and everywhere
 *  with it but at depth 8, lr 1e-2 (there its seeds disagree); Pre-LN trains everywhere; DeepNorm
 *  stays on the plateau at depth 8 without warm-up and diverges at lr 1e-2 there. */
export function phaseDiagram(placements: string[] = ['post', 'pre', 'deepnorm'], config: Record<string, unknown> = {}): PhaseDiagramResult {
  const trained = (seed: number, escape: number) => ({
    seed,
    outcome: 'trained' as const,
    stopped: 'settled' as const,
    escape_step: escape,
    stop_step: escape + 50,
    final_loss: 3,
    every: 1,
    curve: Array.from({ length: escape + 50 }, (_, i) => (i < escape ? 5.4 : 3)),
  });
  const stuck = (seed: number) => ({
    seed,
    outcome: 'plateau' as const,
    stopped: 'end' as const,
    escape_step: null,
    stop_step: 300,
    final_loss: 5.4,
    every: 3,
    curve: Array(100).fill(5.4),
  });
  const blown = (seed: number) => ({
    seed,
    outcome: 'diverged' as const,
    stopped: 'diverged' as const,
    escape_step: null,
    stop_step: 3,
    final_loss: 6,
    every: 1,
    curve: [6.1, 6],
  });
  const cell = (placement: string, warmup: number, layers: number, lr: number, runs: PhaseCell['runs']): PhaseCell => {
    const n = (o: string) => runs.filter((r) => r.outcome === o).length;
    const outcome = (['trained', 'plateau', 'diverged'] as const).find((o) => 2 * n(o) > runs.length) ?? 'mixed';
    const esc = runs.map((r) => r.escape_step).filter((e): e is number => e != null);
    return {
      placement,
      warmup,
      layers,
      lr,
      outcome,
      counts: { trained: n('trained'), plateau: n('plateau'), diverged: n('diverged') },
      escape_step: esc.length ? esc.reduce((a, b) => a + b, 0) / esc.length : null,
      final_loss: 4,
      runs,
    };
  };
  const runsOf = (p: string, w: number, L: number, lr: number): PhaseCell['runs'] => {
    if (p === 'pre') return [trained(0, 40 + L), trained(1, 44 + L)];
    if (p === 'deepnorm') return L === 8 && w === 0 ? (lr > 5e-3 ? [blown(0), blown(1)] : [stuck(0), stuck(1)]) : [trained(0, 90), trained(1, 95)];
    if (L === 2) return [trained(0, 60 + w), trained(1, 66 + w)];
    if (w === 0) return [stuck(0), stuck(1)];
    return lr > 5e-3 ? [trained(0, 150), stuck(1)] : [trained(0, 140), trained(1, 150)];
  };
  const cells: PhaseCell[] = [];
  for (const p of placements)
    for (const w of [0, 100]) for (const L of [2, 8]) for (const lr of [1e-3, 1e-2]) cells.push(cell(p, w, L, lr, runsOf(p, w, L, lr)));
  return {
    experiment: 'phase-diagram',
    engine: { version: '0.1.0', build: 'wasm-mt', threads: 2 },
    config: {
      steps: 300,
      settle: 50,
      successors: 4,
      placements,
      depths: [2, 8],
      lrs: [1e-3, 1e-2],
      warmups: [0, 100],
      seeds: [0, 1],
      early_exit: 'on',
      ...config,
    },
    plateau_entropy: 5.36,
    uniform_loss: 5.55,
    divergence_loss: 22.18,
    escape: { window: 10, margin: 0.5 },
    cells,
  };
}

/** A small sharpness document: Post-LN and Pre-LN, Adam and GI-Adam, warm-ups 0 and 10, one seed,
 *  measured at steps 1, 5, 10, 15 against a threshold of 38/η (peak lr 1e-3). Adam without warm-up
 *  starts 10× over the threshold; every other run stays under it. */
export function sharpness(): SharpnessResult {
  const at = [1, 5, 10, 15];
  const lr = (w: number) => at.map((t) => (w > 0 && t <= w ? (1e-3 * t) / w : 1e-3));
  const run = (placement: string, optimizer: string, warmup: number, sharpness: number[]) => ({
    placement,
    optimizer,
    warmup,
    seed: 0,
    status: 'ok',
    stop_step: 0,
    steps: at,
    sharpness,
    threshold: lr(warmup).map((l) => 38 / l),
    lr: lr(warmup),
    iterations: [12, 10, 9, 9],
    converged: [1, 1, 1, 1],
    fd_step: [1e-7, 1e-7, 1e-7, 1e-7],
    loss: Array.from({ length: 15 }, (_, i) => 5.5 - 0.01 * i),
  });
  return {
    experiment: 'sharpness',
    engine: { version: '0.1.0', build: 'wasm-mt', threads: 2 },
    config: { steps: 15, every: 5, lr: 1e-3, placements: ['post', 'pre'], optimizers: ['adam', 'gi-adam'], warmups: [0, 10], seeds: [0] },
    plateau_entropy: 5.36,
    runs: [
      run('post', 'adam', 0, [3.8e5, 2e4, 1e4, 8e3]),
      run('post', 'adam', 10, [3.8e5, 2e4, 1e4, 8e3]),
      run('post', 'gi-adam', 0, [5e4, 1e4, 8e3, 6e3]),
      run('post', 'gi-adam', 10, [5e4, 1e4, 8e3, 6e3]),
      run('pre', 'adam', 0, [1e5, 5e3, 3e3, 2e3]),
      run('pre', 'adam', 10, [1e5, 5e3, 3e3, 2e3]),
      run('pre', 'gi-adam', 0, [2e4, 3e3, 2e3, 1e3]),
      run('pre', 'gi-adam', 10, [2e4, 3e3, 2e3, 1e3]),
    ],
  };
}

/** A small lr-sensitivity document: Pre-LN and QK-norm over three peak lrs, one seed; Pre-LN's run at
 *  the largest lr stopped by the trainer (its logit grown), QK-norm's trained everywhere. */
export function lrSensitivity(): LrSensitivityResult {
  const lrs = [1e-3, 1e-2, 0.3];
  const run = (placement: string, i: number, final: number | null, logits: number[]) => ({
    placement,
    lr: lrs[i],
    seed: 0,
    status: final == null ? 'diverged' : 'ok',
    stop_step: final == null ? 15 : 20,
    loss0: 5.6,
    final_loss: final,
    at: final == null ? [1, 10, 15] : [1, 10, 20],
    max_logit: logits,
    curve_every: 1,
    curve: [5.6, 4.1, 3.2],
  });
  const runs = [
    run('pre', 0, 3, [2, 2.5, 3]),
    run('pre', 1, 1.8, [2, 4, 6]),
    run('pre', 2, null, [2, 40, 400]),
    run('qknorm', 0, 3.1, [1.5, 1.6, 1.7]),
    run('qknorm', 1, 1.7, [1.5, 2, 2.2]),
    run('qknorm', 2, 2.1, [1.5, 2.4, 2.8]),
  ];
  const entry = (placement: string) => {
    const rs = runs.filter((r) => r.placement === placement);
    const capped = rs.map((r) => (r.final_loss == null ? r.loss0 : Math.min(r.final_loss, r.loss0)));
    const best = Math.min(...capped);
    return {
      placement,
      loss0: 5.6,
      best_loss: best,
      best_lr: lrs[capped.indexOf(best)],
      sensitivity: capped.reduce((a, b) => a + b, 0) / capped.length - best,
      sensitivity_per_seed: [capped.reduce((a, b) => a + b, 0) / capped.length - best],
      cells: rs.map((r, i) => ({
        lr: r.lr,
        final_loss: r.final_loss,
        capped_loss: capped[i],
        stopped: r.final_loss == null ? 1 : 0,
        max_logit: Math.max(...r.max_logit),
        logit_at_init: r.max_logit[0],
      })),
    };
  };
  return {
    experiment: 'lr-sensitivity',
    engine: { version: '0.1.0', build: 'wasm-mt', threads: 2 },
    config: { layers: 4, steps: 20, warmup: 1, every: 10, lrs, seeds: [0], placements: ['pre', 'qknorm'] },
    plateau_entropy: 5.3,
    uniform_loss: Math.log(256),
    eval_batches: 4,
    placements: [entry('pre'), entry('qknorm')],
    runs,
  };
}

/** A small angular-update document: Post-LN, Pre-LN and DeepNorm, warm-ups 0 and 2, two seeds, 2
 *  layers (4 weight groups), 4 steps; each run's angles `a` per step (radians, the same for every
 *  group), its relative update 1.1 times the angle. */
export function angularUpdate(
  a: Record<string, number[]> = { post: [0.05, 0.04, 0.04, 0.04], pre: [0.05, 0.02, 0.02, 0.02], deepnorm: [0.08, 0.03, 0.02, 0.02] },
): AngularUpdateResult {
  const groups = ['layer1.attn', 'layer1.ffn', 'layer2.attn', 'layer2.ffn'];
  const runs = Object.entries(a).flatMap(([placement, angles]) =>
    [0, 2].flatMap((warmup) =>
      [0, 1].map((seed) => {
        const row = angles.map((x, i) => (warmup && i < warmup ? (x * (i + 1)) / warmup : x) * (1 + 0.01 * seed));
        return {
          placement,
          warmup,
          seed,
          status: 'ok',
          stop_step: 0,
          angle: groups.map(() => row),
          relative: groups.map(() => row.map((x) => 1.1 * x)),
          loss: [5.5, 5.4, 5.3, 5.2],
        };
      }),
    ),
  );
  return {
    experiment: 'angular-update',
    engine: { version: '0.1.0', build: 'wasm-mt', threads: 2 },
    config: { layers: 2, steps: 4, beta1: 0.9, placements: Object.keys(a), warmups: [0, 2], seeds: [0, 1] },
    groups,
    runs,
  };
}

/** A stored run (lib/runs/entry.ts RunEntry): #1 of the grid slot, done, drawing `doc` (by default
 *  grid() above); `over` replaces any field. */
export const runEntry = (over: Partial<RunEntry> = {}): RunEntry => ({
  id: 'r1',
  slot: 'grid',
  name: '#1',
  n: 1,
  createdAt: '2026-12-01T10:00:00.000Z',
  finishedAt: '2026-12-01T10:01:00.000Z',
  config: { ...grid().config },
  status: 'done',
  message: '',
  fraction: 1,
  elapsedMs: 1200,
  engine: { flavour: 'wasm-mt', threads: 2 },
  doc: grid(),
  hidden: false,
  imported: null,
  ...over,
});
