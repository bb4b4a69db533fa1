// threads.test.ts — the threaded build sizes its pool from the machine: one Web Worker per core (the
// CPU count under Node, navigator.hardwareConcurrency in a browser), capped at 16, and the engine
// never uses more threads than it has workers for, so asking for too many cannot deadlock. Each
// case runs in a fresh Node process whose os.cpus() is stubbed to report `cores` CPUs.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function engineWith(cores: number, threads: number[]): { pool: number; threads: number[]; ran: boolean } {
  const script = `
    const os = require('os');
    const n = ${cores};
    os.cpus = () => Array.from({ length: n }, () => ({ model: 'stub', speed: 0, times: {} }));
    (async () => {
      const { loadEngine } = await import(${JSON.stringify(new URL('../../scripts/load-engine.mjs', import.meta.url).href)});
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
  const out = execFileSync(process.execPath, ['--no-experimental-fetch', '-e', script], { timeout: 60000, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!);
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
