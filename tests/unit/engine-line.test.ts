// engine-line.test.ts — the footer's sentence about the engine (web/src/lib/engine-line.ts), in both
// languages, from backend-choice.ts's selection codes; and that every code has its strings.
import { describe, expect, it } from 'vitest';
import { chooseBackend, fallbackAfterGpuError, type GpuProbe } from '../../web/src/engine/backend-choice';
import { engineLine } from '../../web/src/lib/engine-line';
import { uiString } from '../../web/src/lib/text';

const en = (k: string) => uiString('en', k);
const zh = (k: string) => uiString('zh', k);
const REPORT = { passed: true, matmulMaxRel: 1e-7, gradMaxRel: 2e-7, lossRel: 0, tolerance: 1e-3 };
const line = (probe: GpuProbe, iso: boolean, override: 'cpu' | 'webgpu' | null, t = en, threads = 2) =>
  engineLine({ ...chooseBackend(probe, iso, override), threads }, t);

describe('engineLine', () => {
  it.each<[string, GpuProbe, boolean, 'cpu' | 'webgpu' | null, RegExp]>([
    ['GPU ready', { kind: 'ready', adapter: 'nvidia ampere', report: REPORT }, true, null, /^Engine: WebGPU on nvidia ampere\. Its start-up self-test matched the CPU engine\.$/],
    ['no adapter, isolated', { kind: 'no-adapter' }, true, null, /^Engine: the threaded CPU engine \(WebAssembly, 2 threads\)\. No WebGPU adapter is available\.$/],
    ['no adapter, not isolated', { kind: 'no-adapter' }, false, null, /single-threaded CPU engine.*No WebGPU adapter.*not cross-origin isolated/],
    ['software adapter', { kind: 'software', adapter: 'google swiftshader' }, true, null, /The only WebGPU adapter \(google swiftshader\) is a software one/],
    ['?backend=cpu', { kind: 'skipped' }, true, 'cpu', /^Engine: the threaded CPU engine.*Chosen with \?backend=cpu\.$/],
    ['?backend=cpu, not isolated: no isolation note', { kind: 'skipped' }, false, 'cpu', /^Engine: the single-threaded CPU engine \(WebAssembly\)\. Chosen with \?backend=cpu\.$/],
    ['?backend=webgpu without adapter', { kind: 'no-adapter' }, true, 'webgpu', /\?backend=webgpu was asked for, but: No WebGPU adapter/],
    ['forced', { kind: 'self-test-failed', message: 'differ by 1e-2' }, true, 'webgpu', /WebGPU.*Kept because of \?backend=webgpu although its self-test failed \(differ by 1e-2\)/],
  ])('%s', (_, probe, iso, override, want) => expect(line(probe, iso, override)).toMatch(want));

  it('says when the GPU failed and the run restarted on the CPU', () => {
    const fb = fallbackAfterGpuError(new Error('lnx: gpu: WebGPU device lost (destroyed)'), true)!;
    expect(engineLine({ ...fb, threads: 2 }, en)).toMatch(/threaded CPU engine.*The GPU failed during a run \(WebGPU device lost \(destroyed\)\), so the run restarted on the CPU\./);
    expect(engineLine({ ...fb, threads: 2 }, zh)).toMatch(/^计算引擎：多线程 CPU 引擎.*GPU 在运行中出错/);
  });

  it('has every string in both languages (no raw keys, no English in the Chinese line)', () => {
    const probes: GpuProbe[] = [
      { kind: 'skipped' }, { kind: 'unsupported' }, { kind: 'no-adapter' }, { kind: 'software', adapter: 'x' },
      { kind: 'device-failed', message: 'x' }, { kind: 'self-test-failed', message: 'x' }, { kind: 'ready', adapter: 'x', report: REPORT },
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
