// engine-line.test.ts — the footer's sentence about the engine (web/src/lib/engine-line.ts), in both
// languages, from backend-choice.ts's selection codes; and that every code has its strings.
import { describe, expect, it } from 'vitest';
import { chooseBackend, fallbackAfterGpuError, type GpuProbe } from '../../web/src/engine/backend-choice';
import { engineLine, engineWords, fallbackNote, handoffSummary, probeHandoffSummary } from '../../web/src/lib/engine-line';
import { uiString } from '../../web/src/lib/text';

const en = (k: string) => uiString('en', k);
const zh = (k: string) => uiString('zh', k);
const REPORT = { passed: true, matmulMaxRel: 1e-7, gradMaxRel: 2e-7, lossRel: 0, tolerance: 1e-3 };
const line = (probe: GpuProbe, iso: boolean, override: 'cpu' | 'webgpu' | null, t = en, threads = 2) =>
  engineLine({ ...chooseBackend(probe, iso, override), threads }, t);

describe('engineLine', () => {
  it.each<[string, GpuProbe, boolean, 'cpu' | 'webgpu' | null, RegExp]>([
    [
      'GPU ready',
      { kind: 'ready', adapter: 'nvidia ampere', report: REPORT },
      true,
      null,
      /^Engine: WebGPU on nvidia ampere\. Its start-up self-test matched the CPU engine\.$/,
    ],
    [
      'no adapter, isolated',
      { kind: 'no-adapter' },
      true,
      null,
      /^Engine: the threaded CPU engine \(WebAssembly, 2 threads\)\. No WebGPU adapter is available\.$/,
    ],
    ['no adapter, not isolated', { kind: 'no-adapter' }, false, null, /single-threaded CPU engine.*No WebGPU adapter.*not cross-origin isolated/],
    ['software adapter', { kind: 'software', adapter: 'google swiftshader' }, true, null, /The only WebGPU adapter \(google swiftshader\) is a software one/],
    ['?backend=cpu', { kind: 'skipped' }, true, 'cpu', /^Engine: the threaded CPU engine.*Chosen with \?backend=cpu\.$/],
    [
      '?backend=cpu, not isolated: no isolation note',
      { kind: 'skipped' },
      false,
      'cpu',
      /^Engine: the single-threaded CPU engine \(WebAssembly\)\. Chosen with \?backend=cpu\.$/,
    ],
    ['?backend=webgpu without adapter', { kind: 'no-adapter' }, true, 'webgpu', /\?backend=webgpu was asked for, but: No WebGPU adapter/],
    [
      'forced',
      { kind: 'self-test-failed', message: 'differ by 1e-2' },
      true,
      'webgpu',
      /WebGPU.*Kept because of \?backend=webgpu although its self-test failed \(differ by 1e-2\)/,
    ],
  ])('%s', (_, probe, iso, override, want) => expect(line(probe, iso, override)).toMatch(want));

  it('says when the GPU failed and the CPU engine took over', () => {
    const fb = fallbackAfterGpuError(new Error('lnx: gpu: WebGPU device lost (destroyed)'), true)!;
    expect(engineLine({ ...fb, threads: 2 }, en)).toMatch(
      /threaded CPU engine.*The GPU failed during a run \(WebGPU device lost \(destroyed\)\), so the CPU engine took over\./,
    );
    expect(engineLine({ ...fb, threads: 2 }, zh)).toMatch(/^计算引擎：多线程 CPU 引擎.*GPU 在运行中出错/);
  });

  it('has every string in both languages (no raw keys, no English in the Chinese line)', () => {
    const probes: GpuProbe[] = [
      { kind: 'skipped' },
      { kind: 'unsupported' },
      { kind: 'no-adapter' },
      { kind: 'software', adapter: 'x' },
      { kind: 'device-failed', message: 'x' },
      { kind: 'self-test-failed', message: 'x' },
      { kind: 'ready', adapter: 'x', report: REPORT },
    ];
    for (const t of [en, zh])
      for (const p of probes)
        for (const iso of [true, false])
          for (const o of [null, 'cpu', 'webgpu'] as const) {
            const s = line(p, iso, o, t);
            expect(s).not.toMatch(/engine\.\w/);
            if (t === zh) expect(s).not.toMatch(/\b(the|engine|adapter|threads)\b/);
          }
  });
});

describe('fallbackNote (a WebGPU grid that lost its device)', () => {
  const fb = { ...fallbackAfterGpuError(new Error('lnx: gpu: WebGPU device lost (destroyed)'), true)!, threads: 2 };
  const run = (n: number, handoff?: number) => ({
    loss: Array(n).fill(1),
    ...(handoff != null ? { handoff: { backend: 'webgpu' as const, steps: handoff } } : {}),
  });
  it.each<[string, ReturnType<typeof run>[], ReturnType<typeof handoffSummary>]>([
    ['nothing handed over', [run(40), run(40)], null],
    ['no document', [], null],
    ['one finished, two continued, one fresh', [run(40, 40), run(40, 16), run(40, 24), run(40)], { finished: 1, continued: 2, from: 16, fresh: 1 }],
    ['a stopped run counts as finished on the GPU', [run(6, 7), run(40, 8)], { finished: 1, continued: 1, from: 8, fresh: 0 }],
    ['all finished: no earliest step', [run(40, 40)], { finished: 1, continued: 0, from: 0, fresh: 0 }],
    ["an experiment's runs without a hand-off", [run(10)], null],
  ])('%s', (_, runs, want) => expect(handoffSummary({ runs })).toEqual(want));
  it('reads any document: none, no runs, runs of another shape', () => {
    expect(handoffSummary(null)).toBeNull();
    expect(handoffSummary({ placements: {} })).toBeNull();
    expect(handoffSummary({ runs: 'x' })).toBeNull();
    expect(handoffSummary({ runs: [{ handoff: { steps: 'many' } }] })).toBeNull();
  });

  it('says what was kept and from where, in both languages; without a hand-off, the restart line', () => {
    const doc = { runs: [run(40, 40), run(40, 16), run(40)] };
    expect(fallbackNote(fb, handoffSummary(doc), en)).toBe(
      'The GPU failed during the run (WebGPU device lost (destroyed)), so the grid went on on the CPU from where the GPU had got to. ' +
        'Runs finished on the GPU: 1; continued from a saved step: 1 (the earliest from step 16); started on the CPU: 1.',
    );
    expect(fallbackNote(fb, handoffSummary(doc), zh)).toMatch(/^GPU 在运行中出错.*跑完的运行：1 个；.*：1 个（最早从第 16 步起）；.*：1 个。$/);
    expect(fallbackNote(fb, handoffSummary({ runs: [run(40)] }), en)).toBe(`${engineLine(fb, en)} The run restarted on the CPU.`);
    expect(fallbackNote(fb, null, en)).toMatch(/took over\. The run restarted on the CPU\.$/);
  });
});

describe('fallbackNote (a WebGPU probe that lost its device)', () => {
  const fb = { ...fallbackAfterGpuError(new Error('lnx: gpu: WebGPU device lost (destroyed)'), true)!, threads: 2 };
  it.each<[string, unknown, ReturnType<typeof probeHandoffSummary>]>([
    ['7 of 12 jobs on the GPU', { placements: {}, handoff: { backend: 'webgpu', jobs: 7, of: 12 } }, { jobs: 7, of: 12 }],
    ['none on the GPU', { placements: {}, handoff: { backend: 'webgpu', jobs: 0, of: 12 } }, null],
    ['no hand-off', { placements: {} }, null],
    ['no document', null, null],
    ['more jobs than the plan', { handoff: { jobs: 13, of: 12 } }, null],
    ['not numbers', { handoff: { jobs: '7', of: 12 } }, null],
    ["a grid's runs", { runs: [{ loss: [1], handoff: { backend: 'webgpu', steps: 1 } }] }, null],
  ])('%s', (_, doc, want) => expect(probeHandoffSummary(doc as object | null)).toEqual(want));

  it('says how many jobs came from the GPU, in both languages', () => {
    const h = probeHandoffSummary({ handoff: { backend: 'webgpu', jobs: 7, of: 12 } });
    expect(fallbackNote(fb, h, en)).toBe(
      'The GPU failed during the probe (WebGPU device lost (destroyed)), so it went on on the CPU from where the GPU had got to: ' +
        '7 of its 12 jobs (a placement, a seed and a depth each) were measured on the GPU, the other 5 on the CPU.',
    );
    expect(fallbackNote(fb, h, zh)).toMatch(/^GPU 在测量中出错.*12 个作业.*有 7 个在 GPU 上测得，其余 5 个在 CPU 上。$/);
  });
});

describe('engineWords', () => {
  it.each<[string, Parameters<typeof engineWords>[0], string, string]>([
    ['threaded, fused', { flavour: 'wasm-mt-fma', fma: true, threads: 2 }, 'wasm-mt-fma · fused multiply-add · 2 threads', 'wasm-mt-fma · 融合乘加 · 2 个线程'],
    ['FMA flavour, exact', { flavour: 'wasm-mt-fma', threads: 4 }, 'wasm-mt-fma · 4 threads', 'wasm-mt-fma · 4 个线程'],
    ['single thread', { flavour: 'wasm-st', fma: false, threads: 1 }, 'wasm-st · single thread', 'wasm-st · 单线程'],
    ['threads unknown', { flavour: 'wasm-st', threads: null }, 'wasm-st', 'wasm-st'],
    ['GPU', { flavour: 'wasm-st', fma: true, threads: 1, gpu: true }, 'WebGPU', 'WebGPU'],
    ['nothing known', { flavour: '' }, '', ''],
  ])('%s', (_, e, wantEn, wantZh) => {
    expect(engineWords(e, en).join(' · ')).toBe(wantEn);
    expect(engineWords(e, zh).join(' · ')).toBe(wantZh);
  });
});
