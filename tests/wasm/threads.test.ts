// threads.test.ts — the threaded build sizes its pool from the machine: one Web Worker per core (the
// CPU count under Node, navigator.hardwareConcurrency in a browser), capped at 16, and the engine
// never uses more threads than it has workers for, so asking for too many cannot deadlock. And any
// thread count gives the same bits: a training run, the grid (and a grid of one run, whose curve is
// the training run's), the probe and two single-run experiments (plateau-share, sharpness) on 1, 2,
// 3, 4 and 16 threads, in both threaded flavours (the FMA one with its fused kernel on too), equal to
// the single-threaded build's where the arithmetic is the portable one. Each case runs in a fresh Node process whose os.cpus() is stubbed
// to report `cores` CPUs (16 threads on this machine's cores check bits, not speed).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { numbers } from './load';

// The start of a Node script whose machine has `cores` CPUs, with the engine's loader in scope.
const withCores = (cores: number) => `
    const os = require('os');
    const n = ${cores};
    os.cpus = () => Array.from({ length: n }, () => ({ model: 'stub', speed: 0, times: {} }));
    const engine = import(${JSON.stringify(new URL('../../scripts/load-engine.mjs', import.meta.url).href)});`;
const runNode = (script: string) =>
  JSON.parse(execFileSync(process.execPath, ['--no-experimental-fetch', '-e', script], { timeout: 160_000, encoding: 'utf8' }).trim().split('\n').pop()!);

function engineWith(cores: number, threads: number[]): { pool: number; threads: number[]; ran: boolean } {
  const script = `${withCores(cores)}
    (async () => {
      const { loadEngine } = await engine;
      const m = await loadEngine('mt');
      const pool = m.threads();
      const got = [];
      let ran = true;
      for (const t of ${JSON.stringify(threads)}) {
        m.setThreads(t);
        got.push(m.threads());
        const g = new m.GridRun(JSON.stringify({ layers: 1, d: 8, d_ff: 8, vocab: 16, seq: 4, batch: 2, steps: 3, warmups: [0], lrs: [0.001], seeds: [0, 1, 2, 3] }));
        while (!g.done()) g.step(3);
        ran = ran && JSON.parse(g.resultJson(0)).runs.every((r) => r.status === 'ok');
        g.delete();
      }
      console.log(JSON.stringify({ pool, threads: got, ran }));
      process.exit(0);
    })();`;
  return runNode(script);
}

// Small jobs whose products and element-wise ops still split over teams of 2–8 threads.
const MODEL = { layers: 2, d: 64, d_ff: 256, vocab: 64, seq: 32, batch: 8 };
const JOBS = {
  train: { kind: 'TrainRun', config: { ...MODEL, placement: 'pre', steps: 6 } },
  grid: { kind: 'GridRun', config: { ...MODEL, steps: 4, placements: ['pre'], warmups: [0, 2], lrs: [1e-3, 3e-3], seeds: [0] } },
  // a grid of one run computes its halves at once, as a TrainRun does (wasm/trainer.cpp): the train
  // job's run, whose curve it must be
  'grid of one': { kind: 'GridRun', config: { ...MODEL, steps: 6, placements: ['pre'], warmups: [0], lrs: [1e-3], seeds: [0] } },
  probe: { kind: 'ProbeRun', config: { ...MODEL, layers: 3, batch: 4, seeds: [0], batches: 2, depth_batches: 1, depths: [2, 3] } },
  'plateau-share': { kind: 'ExperimentRun', config: { ...MODEL, steps: 4, every: 2, warmups: [0, 2] } },
  // a training run on teams, and Lanczos products on a double model whose ops split too; at a
  // quarter of the tokens (4 × 16: 4 rows a thread at 16 threads), since each Lanczos step is two
  // gradients in double: at MODEL's 8 × 32 it was three quarters of the file's time (1.0 of 1.5 s
  // a thread count on 1 thread, 2.5 of 3.6 s on 16)
  sharpness: {
    kind: 'ExperimentRun',
    config: { ...MODEL, batch: 4, seq: 16, steps: 2, every: 2, placements: ['post'], optimizers: ['adam'], warmups: [0], seeds: [0], lanczos_steps: 4 },
  },
};
const THREADS = [1, 2, 3, 4, 16];

/** Each job's document on each thread count, keyed `${job}@${threads}` (with the fused kernel off)
 *  and `fma:${job}@${threads}` (on, when `fma`), in `flavour`, in a process whose machine reports
 *  16 cores. */
function documents(flavour: 'st' | 'mt' | 'mt-fma', threads: number[], fma = false): Record<string, unknown> {
  const script = `${withCores(16)}
    (async () => {
      const { loadEngine } = await engine;
      const m = await loadEngine(${JSON.stringify(flavour)});
      const jobs = ${JSON.stringify(JOBS)};
      const out = {};
      for (const fused of ${fma} ? [false, true] : [false]) {
        m.setGemmFma(fused);
        for (const t of ${JSON.stringify(threads)}) {
          m.setThreads(t);
          if (m.threads() !== t) throw new Error('asked for ' + t + ' threads, got ' + m.threads());
          for (const [name, { kind, config }] of Object.entries(jobs)) {
            const run = kind === 'ExperimentRun' ? new m.ExperimentRun(name, JSON.stringify(config)) : new m[kind](JSON.stringify(config));
            if (kind === 'TrainRun') run.step(config.steps);
            else while (!run.done()) run.step(2);
            out[(fused ? 'fma:' : '') + name + '@' + t] = JSON.parse(kind === 'TrainRun' || kind === 'GridRun' ? run.resultJson(0) : run.resultJson());
            run.delete();
          }
        }
      }
      console.log(JSON.stringify(out));
      process.exit(0);
    })();`;
  return runNode(script);
}

describe('the threaded build uses every core', () => {
  it('6 cores: 6 threads by default; asking for 100 gives the most it has workers for, and runs', () => {
    expect(engineWith(6, [0, 100, 2])).toEqual({ pool: 6, threads: [6, 7, 2], ran: true });
  });
  it('1 core: 1 thread; 40 cores: capped at 16', () => {
    expect(engineWith(1, [0, 4]).threads).toEqual([1, 2]);
    expect(engineWith(40, [0]).threads).toEqual([16]);
  });
});

describe('any thread count gives the same bits', () => {
  const portable = documents('st', [1]);
  for (const flavour of ['mt', 'mt-fma'] as const)
    it(`${flavour}: train, grid, a grid of one, probe, plateau-share and sharpness on ${THREADS.join(', ')} threads${flavour === 'mt-fma' ? ', its fused kernel off and on' : ''}`, () => {
      const docs = documents(flavour, THREADS, flavour === 'mt-fma');
      for (const prefix of flavour === 'mt-fma' ? ['', 'fma:'] : [''])
        for (const job of Object.keys(JOBS)) {
          const one = numbers(docs[`${prefix}${job}@1`]);
          expect(one.length, job).toBeGreaterThan(10);
          for (const t of THREADS) expect(numbers(docs[`${prefix}${job}@${t}`]), `${prefix}${job} on ${t} threads`).toEqual(one);
          // the portable arithmetic is the single-threaded build's to the last bit; the fused kernel's
          // last bits are this CPU's (on a CPU without FMA3 they are the portable ones), so it is only
          // compared with itself
          if (prefix === '') expect(one, `${job} against the single-threaded build`).toEqual(numbers(portable[`${job}@1`]));
        }
      for (const t of THREADS) {
        const curve = (doc: unknown) => {
          const { loss, grad_norm } = doc as { loss: number[]; grad_norm: number[] };
          return { loss, grad_norm };
        };
        const train = curve(docs[`train@${t}`]);
        expect(train.loss.length).toBe(6);
        expect(curve((docs[`grid of one@${t}`] as { runs: unknown[] }).runs[0]), `the grid of one on ${t} threads against the training run`).toEqual(train);
      }
    }, 170_000); // one Node process (runNode: 160 s at most); the FMA flavour's two passes ran past 60 s on 2 busy cores
});
