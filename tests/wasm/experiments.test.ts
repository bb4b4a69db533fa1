// experiments.test.ts — the experiments (wasm/experiments/, docs/experiments.md) through Embind:
// every registered experiment at a tiny setting gives the native CLI's numbers (`lnx exp NAME`),
// the same to the last bit in both flavours and on 1 or 2 threads (WebAssembly arithmetic does not
// depend on the CPU), and refuses bad input with the engine's message.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectClose, loadEngine, numbers, runToEnd, type Flavour } from './load';
import { EXPERIMENTS } from '../../web/src/generated/engine-schema';

const LNX = new URL('../../build/lnx', import.meta.url).pathname;
const TINY = { d: 16, d_ff: 32, vocab: 32, seq: 8, batch: 2 };
/** A setting of each experiment that runs in well under a second. */
const CONFIGS: Record<string, object> = {
  'adam-first-step': { ...TINY, layers: 2, steps: 4 },
  'step-size': { ...TINY, depths: [1, 2], etas: [1e-3, 1e-2], seeds: [0] },
  'output-sensitivity': { ...TINY, depths: [1, 2], seeds: [0, 1] },
  'warmup-length': { ...TINY, layers: 1, steps: 12, warmups: [0, 4], lr_factors: [1], seeds: [0], optimizers: ['adam', 'radam'] },
  'plateau-share': { ...TINY, layers: 2, steps: 8, every: 4, warmups: [0, 4] },
  'tied-output': { ...TINY, depths: [1, 2], seeds: [0], depth_batches: 1 },
  'depth-factors': { ...TINY, layers: 3, seeds: [0], batches: 2 },
  'phase-diagram': { ...TINY, placements: ['post', 'pre'], depths: [1, 2], lrs: [1e-2, 10], warmups: [0, 5], seeds: [0], steps: 40, settle: 5 },
  sharpness: { ...TINY, layers: 1, steps: 6, every: 3, warmups: [0, 3], seeds: [0] },
  'init-profile': { ...TINY, layers: 2, depths: [1, 2], seeds: [0], batches: 1, depth_batches: 1 },
  'lr-sensitivity': { ...TINY, layers: 1, lrs: [1e-4, 1e-3], steps: 4, warmup: 1, every: 2 },
  // bytes of the article's English text (vocab 256: the experiment has no vocab field)
  'real-text': { d: 16, d_ff: 32, seq: 8, batch: 2, layers: 1, steps: 12, eval_every: 5, warmups: [0, 4], seeds: [0], langs: ['en'] },
  'angular-update': { ...TINY, layers: 2, steps: 5, warmups: [0, 3], seeds: [0] },
};

function withoutBk(doc: any): any {
  const out = structuredClone(doc);
  // adam-first-step's runs (a list), or the per-placement records of the others
  for (const p of [...(out.runs ?? []), ...Object.values<any>(out.placements ?? {})])
    if (Array.isArray(p?.tensors)) p.tensors = p.tensors.filter((t: { name: string }) => !t.name.endsWith('.bk'));
  return out;
}

async function runIn(flavour: Flavour, name: string, threads: number): Promise<any> {
  const m = await loadEngine(flavour);
  if (flavour === 'mt') m.setThreads(threads);
  return runToEnd(new m.ExperimentRun(name, JSON.stringify(CONFIGS[name])), 1);
}

describe('experiments in WebAssembly', () => {
  it('covers every registered experiment', async () => {
    const m = await loadEngine('st');
    expect(JSON.parse(m.experimentNamesJson())).toEqual([...EXPERIMENTS]);
    expect(Object.keys(CONFIGS).sort()).toEqual([...EXPERIMENTS].sort());
  });

  for (const name of Object.keys(CONFIGS)) {
    it(`${name}: bit-identical across flavours and thread counts, and close to the native build`, async () => {
      const st = await runIn('st', name, 1);
      const mt1 = await runIn('mt', name, 1);
      const mt2 = await runIn('mt', name, 2);
      expect(st.experiment).toBe(name);
      expect(numbers(mt1)).toEqual(numbers(st));
      expect(numbers(mt2)).toEqual(numbers(st));
      if (existsSync(LNX)) {
        const flags = Object.entries(CONFIGS[name]).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, Array.isArray(v) ? v.join(',') : String(v)]);
        const native = JSON.parse(execFileSync(LNX, ['exp', name, ...flags, '--json', '--threads', '1'], { encoding: 'utf8' }));
        expect(native.config).toEqual(st.config);
        // Except the key bias's step: its gradient is zero up to rounding (softmax ignores a constant
        // added to a row's scores), so Adam's step on it is rounding noise over ε.
        // Native last bits depend on the CPU's vector units; the tiny models stay within 1e-3.
        expectClose(numbers(withoutBk(st)), numbers(withoutBk(native)), 1e-3);
      }
    });
  }

  // `lnx exp phase-diagram --placement-spec F --placements pre,F's name`: only the spec's runs carry
  // the spec (train_common.h set_run_placement); a Figure-N cell of a composed placement is this call
  it('phase-diagram runs a placement spec beside a registered placement, as the native CLI does', async () => {
    const file = new URL('../../wasm/placements/presets/qknorm.json', import.meta.url);
    const cfg = { ...TINY, placements: ['pre', 'qknorm'], depths: [1], lrs: [1e-2], warmups: [0], seeds: [0], steps: 20, settle: 5 };
    const m = await loadEngine('st');
    const doc = runToEnd(new m.ExperimentRun('phase-diagram', JSON.stringify({ ...cfg, placement_spec: JSON.parse(readFileSync(file, 'utf8')) })), 1);
    expect(doc.cells.map((c: { placement: string }) => c.placement)).toEqual(['pre', 'qknorm']);
    if (existsSync(LNX)) {
      const flags = Object.entries(cfg).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, Array.isArray(v) ? v.join(',') : String(v)]);
      const native = JSON.parse(
        execFileSync(LNX, ['exp', 'phase-diagram', ...flags, '--placement-spec', file.pathname, '--json', '--threads', '1'], { encoding: 'utf8' }),
      );
      expect(native.config).toEqual(doc.config);
      expectClose(numbers(withoutBk(doc)), numbers(withoutBk(native)), 1e-3);
    }
  });

  it('refuses bad input with the engine message', async () => {
    const m = await loadEngine('st');
    expect(() => new m.ExperimentRun('nope', '{}')).toThrowError(/lnx: experiment must be one of "adam-first-step"/);
    expect(() => new m.ExperimentRun('step-size', '{"depths":[65]}')).toThrowError(/lnx: depths entry/);
    expect(() => new m.ExperimentRun('output-sensitivity', '{"perturbation":0}')).toThrowError(/lnx: perturbation = 0 is out of range/);
    expect(() => new m.ExperimentRun('output-sensitivity', '{"perturbation":1e999}')).toThrowError(/value of "perturbation"/);
    expect(() => new m.ExperimentRun('warmup-length', '{"optimizers":["lion"]}')).toThrowError(/lnx: optimizers entry/);
    // the sharpness experiment offers only the optimizers that state a preconditioner
    expect(() => new m.ExperimentRun('sharpness', '{"optimizers":["sgd"]}')).toThrowError(/lnx: optimizers entry.*gi-adam/);
    // the composer's call: a bad placement spec is refused naming its key
    const spec = { name: 'c', residual_scale: { kind: 'completep', a: 0 } };
    expect(() => new m.ExperimentRun('init-profile', JSON.stringify({ placements: ['c'], placement_spec: spec }))).toThrowError(
      /lnx: placement_spec\.residual_scale\.a = 0 is out of range/,
    );
    const r = new m.ExperimentRun('output-sensitivity', JSON.stringify(CONFIGS['output-sensitivity']));
    expect(() => r.resultJson()).toThrowError(/before the experiment is done/);
    expect(() => r.step(0)).toThrowError(/work must be an integer/);
    r.delete();
  });
});
