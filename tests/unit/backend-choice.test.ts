// backend-choice.test.ts — the backend selection and GPU fallback of
// web/src/engine/backend-choice.ts, with fake navigator.gpu objects and fake engine modules. The real
// thing (SwiftShader in headless Chromium) is tests/webgpu/run.mjs.
import { execFileSync } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import {
  acquireWebGpu,
  chooseBackend,
  cpuGlue,
  fallbackAfterGpuError,
  RELAXED_SIMD_PROBE,
  isGpuError,
  isSoftwareAdapter,
  judgeSelfTest,
  parseBackendOverride,
  runSelfTest,
  selectBackend,
  shouldProbeGpu,
  type GpuLike,
  type GpuModule,
  type GpuProbe,
  type SelfTestReport,
} from '../../web/src/engine/backend-choice';

const REPORT: SelfTestReport = { passed: true, matmulMaxRel: 0, gradMaxRel: 6e-7, lossRel: 8e-8, tolerance: 1e-3 };
const MM_OK = JSON.stringify({ cases: [], max_rel: 0 });
const GRAD_OK = JSON.stringify({ max_rel: 6e-7, loss_rel: 8e-8 });

describe('the CPU flavour', () => {
  it.each([
    [false, false, 'st', null],
    [true, false, 'mt', null],
    [false, true, 'st-fma', 'st'],
    [true, true, 'mt-fma', 'mt'],
  ])('isolated %s, relaxed SIMD %s: lnx-%s (falling back to %s)', (coi, relaxed, glue, fallback) => {
    expect(cpuGlue(coi, relaxed)).toEqual({ glue, fallback });
  });
  it('the relaxed-SIMD probe validates exactly where relaxed SIMD is on (Node 20: behind a flag)', () => {
    const validate = (flags: string[]) =>
      execFileSync(
        process.execPath,
        [...flags, '-e', `process.stdout.write(String(WebAssembly.validate(Uint8Array.from(${JSON.stringify([...RELAXED_SIMD_PROBE])}))))`],
        { encoding: 'utf8' },
      );
    expect(validate(['--experimental-wasm-relaxed-simd'])).toBe('true');
    expect(validate(['--no-experimental-wasm-relaxed-simd'])).toBe('false');
  });
});

describe('parseBackendOverride', () => {
  it.each([
    ['', null],
    ['?backend=cpu', 'cpu'],
    ['?backend=webgpu', 'webgpu'],
    ['?x=1&backend=cpu', 'cpu'],
    ['?backend=GPU', null],
    ['?backend=', null],
  ])('%s → %s', (search, want) => expect(parseBackendOverride(search)).toBe(want));
});

describe('chooseBackend', () => {
  const ready: GpuProbe = { kind: 'ready', adapter: 'acme', report: REPORT };
  const failed: GpuProbe = { kind: 'self-test-failed', message: 'differ by 1e-2' };
  it.each<[string, GpuProbe, boolean, 'cpu' | 'webgpu' | null, string, RegExp]>([
    ['a passing GPU', ready, true, null, 'webgpu', /WebGPU \(acme\).*self-test matched/],
    ['a passing GPU without isolation', ready, false, null, 'webgpu', /WebGPU/],
    ['no adapter, isolated', { kind: 'no-adapter' }, true, null, 'cpu-mt', /^No WebGPU adapter.*threaded CPU/],
    ['no adapter, not isolated', { kind: 'no-adapter' }, false, null, 'cpu-st', /single-threaded CPU.*not cross-origin isolated/],
    ['no WebGPU API', { kind: 'unsupported' }, true, null, 'cpu-mt', /no WebGPU/],
    ['a device error', { kind: 'device-failed', message: 'limits' }, true, null, 'cpu-mt', /could not be created \(limits\)/],
    ['a failed self-test', failed, true, null, 'cpu-mt', /self-test failed \(differ by 1e-2\)/],
    [
      'a software adapter',
      { kind: 'software', adapter: 'google swiftshader' },
      true,
      null,
      'cpu-mt',
      /^The only WebGPU adapter \(google swiftshader\) is a software one.*threaded CPU/,
    ],
    ['?backend=webgpu with a passing software adapter', ready, false, 'webgpu', 'webgpu', /^\?backend=webgpu: running on WebGPU \(acme\)/],
    ['?backend=cpu with a good GPU', ready, true, 'cpu', 'cpu-mt', /^\?backend=cpu/],
    ['?backend=cpu, not isolated', { kind: 'skipped' }, false, 'cpu', 'cpu-st', /^\?backend=cpu/],
    ['?backend=webgpu forces a failed self-test', failed, true, 'webgpu', 'webgpu', /^\?backend=webgpu: running on WebGPU although/],
    ['?backend=webgpu without adapter', { kind: 'no-adapter' }, true, 'webgpu', 'cpu-mt', /^\?backend=webgpu was asked for, but no WebGPU adapter/],
  ])('%s', (_, probe, isolated, override, backend, reason) => {
    const s = chooseBackend(probe, isolated, override);
    expect(s.backend).toBe(backend);
    expect(s.reason).toMatch(reason);
    // the code the page words in its own language agrees with the sentence
    const why = override === 'cpu' ? 'override-cpu' : override === 'webgpu' && probe.kind === 'self-test-failed' ? 'forced' : probe.kind;
    expect(s.why).toBe(why);
    expect(s.asked).toBe(override === 'webgpu');
  });

  it('probes the GPU unless ?backend=cpu', () => {
    expect(shouldProbeGpu(null)).toBe(true);
    expect(shouldProbeGpu('webgpu')).toBe(true);
    expect(shouldProbeGpu('cpu')).toBe(false);
  });
});

describe('judgeSelfTest', () => {
  it('passes within the tolerance', () => {
    expect(judgeSelfTest(MM_OK, GRAD_OK, 1e-3)).toMatchObject({ passed: true, matmulMaxRel: 0, gradMaxRel: 6e-7 });
  });
  it.each([
    ['a matmul error', JSON.stringify({ max_rel: 2e-3 }), GRAD_OK],
    ['a gradient error', MM_OK, JSON.stringify({ max_rel: 5e-3, loss_rel: 0 })],
    ['a loss error', MM_OK, JSON.stringify({ max_rel: 0, loss_rel: 1 })],
    ['a non-finite number (written as null)', MM_OK, JSON.stringify({ max_rel: null, loss_rel: 0 })],
  ])('fails on %s', (_, mm, grad) => expect(judgeSelfTest(mm, grad, 1e-3).passed).toBe(false));
});

describe('GPU errors during a run', () => {
  const lost = new Error('lnx: gpu: WebGPU device lost (destroyed): Device was destroyed.');
  it("recognises the engine's GPU errors only", () => {
    expect(isGpuError(lost)).toBe(true);
    expect(isGpuError('lnx: gpu: WebGPU error: x')).toBe(true);
    expect(isGpuError(new Error('lnx: lr must be a finite number'))).toBe(false);
    expect(isGpuError(42)).toBe(false);
  });
  it.each([
    [true, 'cpu-mt'],
    [false, 'cpu-st'],
  ] as const)('restarts on the CPU (isolated %s → %s) and says why', (iso, want) => {
    const fb = fallbackAfterGpuError(lost, iso);
    expect(fb).toMatchObject({ backend: want, restart: true });
    expect(fb!.reason).toMatch(/^The GPU failed during the run \(WebGPU device lost \(destroyed\).*the job went on on the/);
  });
  it('leaves other errors to the caller', () => {
    expect(fallbackAfterGpuError(new Error('lnx: layers = 0 is out of range'), true)).toBeNull();
  });
});

function fakeGpu(o: { adapter?: boolean; deviceThrows?: boolean; adapterThrows?: boolean; architecture?: string } = {}) {
  const destroy = vi.fn();
  const requestDevice = vi.fn(async () => {
    if (o.deviceThrows) throw new Error('limit too high');
    return { label: 'device', destroy };
  });
  const gpu: GpuLike = {
    requestAdapter: vi.fn(async () => {
      if (o.adapterThrows) throw new Error('boom');
      return o.adapter === false
        ? null
        : {
            info: { vendor: 'acme', architecture: o.architecture ?? 'rdna' },
            limits: { maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 29 },
            requestDevice,
          };
    }),
  };
  return { gpu, requestDevice, destroy };
}

describe('isSoftwareAdapter', () => {
  const a = (info: Record<string, unknown>, top: Record<string, unknown> = {}) => ({
    info,
    limits: { maxBufferSize: 0, maxStorageBufferBindingSize: 0 },
    requestDevice: async () => ({}),
    ...top,
  });
  it.each([
    [{ vendor: 'google', architecture: 'swiftshader' }, {}, true],
    [{ vendor: 'mesa', description: 'llvmpipe (LLVM 15.0.6, 256 bits)' }, {}, true],
    [{ vendor: 'nvidia', architecture: 'ampere', isFallbackAdapter: true }, {}, true],
    [{ vendor: 'nvidia', architecture: 'ampere' }, { isFallbackAdapter: true }, true],
    [{ vendor: 'nvidia', architecture: 'ampere' }, {}, false],
    [{ vendor: 'apple', architecture: 'metal-3' }, {}, false],
  ])('%j %j → %s', (info, top, want) => expect(isSoftwareAdapter(a(info, top))).toBe(want));
});

describe('acquireWebGpu', () => {
  it('reports a browser without WebGPU', async () => expect(await acquireWebGpu(undefined)).toEqual({ kind: 'unsupported' }));
  it('reports no adapter (null or a throwing request)', async () => {
    expect(await acquireWebGpu(fakeGpu({ adapter: false }).gpu)).toEqual({ kind: 'no-adapter' });
    expect(await acquireWebGpu(fakeGpu({ adapterThrows: true }).gpu)).toEqual({ kind: 'no-adapter' });
  });
  it('reports a device that cannot be created', async () => {
    expect(await acquireWebGpu(fakeGpu({ deviceThrows: true }).gpu)).toEqual({ kind: 'device-failed', message: 'limit too high' });
  });
  it("asks for the adapter's largest buffer limits", async () => {
    const { gpu, requestDevice } = fakeGpu();
    expect(await acquireWebGpu(gpu)).toMatchObject({ device: { label: 'device' }, adapter: 'acme rdna', software: false });
    expect(requestDevice).toHaveBeenCalledWith({ requiredLimits: { maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 29 } });
  });
  it('asks for one adapter and hands it back with its device (its info and features, for the Node harness)', async () => {
    const { gpu } = fakeGpu();
    const a = await acquireWebGpu(gpu);
    expect(gpu.requestAdapter).toHaveBeenCalledTimes(1);
    const first = await (gpu.requestAdapter as ReturnType<typeof vi.fn>).mock.results[0].value;
    expect('raw' in a && a.raw).toBe(first);
  });
});

function fakeModule(o: { mm?: string; grad?: string; ready?: boolean; throws?: boolean } = {}) {
  const deleted: string[] = [];
  const check = (name: string, json: string) => ({
    ready: () => o.ready ?? true,
    resultJson: () => json,
    delete: () => void deleted.push(name),
  });
  const m: GpuModule = {
    GpuMatmulCheck: function () {
      return check('mm', o.mm ?? MM_OK);
    } as unknown as GpuModule['GpuMatmulCheck'],
    GpuGradCheck: function () {
      if (o.throws) throw new Error('lnx: gpu: WebGPU error: bad shader');
      return check('grad', o.grad ?? GRAD_OK);
    } as unknown as GpuModule['GpuGradCheck'],
    lnxGpu: { settled: vi.fn(async () => {}) },
  };
  return { m, deleted };
}

describe('runSelfTest', () => {
  it('returns the report when the GPU matches, and frees both checks', async () => {
    const { m, deleted } = fakeModule();
    expect(await runSelfTest(m)).toMatchObject({ passed: true });
    expect(deleted.sort()).toEqual(['grad', 'mm']);
  });
  it('fails when the results never land', async () => {
    expect(await runSelfTest(fakeModule({ ready: false }).m)).toMatchObject({ kind: 'self-test-failed', message: /never came back/ });
  });
  it('fails with the report when the GPU differs', async () => {
    const r = await runSelfTest(fakeModule({ grad: JSON.stringify({ max_rel: 0.3, loss_rel: 0 }) }).m);
    expect(r).toMatchObject({ kind: 'self-test-failed', message: /differ by 3\.0e-1/, report: { passed: false } });
  });
  it('fails (never throws) when the engine throws', async () => {
    const { m, deleted } = fakeModule({ throws: true });
    expect(await runSelfTest(m)).toMatchObject({ kind: 'self-test-failed', message: /bad shader/ });
    expect(deleted).toEqual(['mm']);
  });
});

describe('selectBackend', () => {
  it('does not touch the GPU under ?backend=cpu', async () => {
    const { gpu } = fakeGpu();
    const s = await selectBackend({ gpu, crossOriginIsolated: false, search: '?backend=cpu', loadGpuModule: vi.fn() });
    expect(s).toMatchObject({ backend: 'cpu-st', probe: { kind: 'skipped' } });
    expect(gpu.requestAdapter).not.toHaveBeenCalled();
  });
  it('chooses WebGPU and hands over the device and module', async () => {
    const { gpu } = fakeGpu();
    const { m } = fakeModule();
    const load = vi.fn(async () => m);
    const s = await selectBackend({ gpu, crossOriginIsolated: true, search: '', loadGpuModule: load });
    expect(s.backend).toBe('webgpu');
    expect(s.gpu).toMatchObject({ device: { label: 'device' }, module: m });
    expect(load).toHaveBeenCalledWith(expect.objectContaining({ label: 'device' }));
  });
  it('does not use (or self-test) a software adapter unless asked to', async () => {
    const { gpu, destroy } = fakeGpu({ architecture: 'swiftshader' });
    const load = vi.fn();
    const s = await selectBackend({ gpu, crossOriginIsolated: true, search: '', loadGpuModule: load });
    expect(s).toMatchObject({ backend: 'cpu-mt', probe: { kind: 'software', adapter: 'acme swiftshader' } });
    expect(load).not.toHaveBeenCalled();
    expect(destroy).toHaveBeenCalled();
  });
  it('self-tests and uses a software adapter under ?backend=webgpu', async () => {
    const { m } = fakeModule();
    const s = await selectBackend({
      gpu: fakeGpu({ architecture: 'swiftshader' }).gpu,
      crossOriginIsolated: true,
      search: '?backend=webgpu',
      loadGpuModule: async () => m,
    });
    expect(s).toMatchObject({ backend: 'webgpu', probe: { kind: 'ready' } });
  });
  it('falls back when the module cannot be loaded on the device', async () => {
    const s = await selectBackend({
      gpu: fakeGpu().gpu,
      crossOriginIsolated: true,
      search: '',
      loadGpuModule: async () => {
        throw new Error('404 lnx-gpu.wasm');
      },
    });
    expect(s).toMatchObject({ backend: 'cpu-mt', probe: { kind: 'device-failed', message: '404 lnx-gpu.wasm' } });
    expect(s.gpu).toBeUndefined();
  });
  it('falls back when the self-test fails', async () => {
    const { m } = fakeModule({ mm: JSON.stringify({ max_rel: 1 }) });
    const s = await selectBackend({ gpu: fakeGpu().gpu, crossOriginIsolated: false, search: '', loadGpuModule: async () => m });
    expect(s).toMatchObject({ backend: 'cpu-st', probe: { kind: 'self-test-failed' } });
  });
});
