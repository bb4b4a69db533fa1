#!/usr/bin/env node
// run.mjs — `npm run test:webgpu`: the WebGPU path against the CPU path in headless Chromium.
//
// Serves the repository (tests/webgpu/server.mjs, COOP/COEP so the page is cross-origin isolated),
// opens tests/webgpu/page.html in Chromium with --enable-unsafe-webgpu (a SwiftShader adapter on
// a machine without a GPU: correct but slow, so this is a correctness test only) and runs each
// check of checks.worker.js in a module worker: the adapter, the backend selection (SwiftShader is
// a software adapter: not chosen by default, chosen and self-tested under ?backend=webgpu), device
// loss. The engine's GPU-vs-CPU checks of engine-checks.js (every backend op, the matmul, gradients,
// 20-step runs, the probe) run in Node (tests/gpu-node/) and here only with --all. Then a
// second browser without the flag (navigator.gpu present, no adapter) runs the no-adapter check.
// Last, the built page (dist/ under vite preview): the worker's backend choice and the footer's
// sentence, Figure 3 on WebGPU with ?backend=webgpu, a tiny Figure-4 grid on WebGPU against the
// CPU (and on the article's text, which goes to the CPU engine), Figure 15's quick map batched on
// WebGPU at a tiny size, and a device lost mid-run (Figure 15's map restarts on the CPU) (in the worker: a run restarts on the CPU; on the page: Figure 4's
// grid continues there from the GPU's checkpoints, and the figure says so; the restart's note is
// table-tested in tests/unit/engine-line.test.ts).
// Prints one line per check, then "N passed, M failed"; exits 1 on any failure.
// Needs public/wasm/lnx-gpu.* (scripts/build-wasm.sh) and /usr/bin/chromium (or $CHROMIUM).
// Leaves out: timing (bench/webgpu_bench.mjs).
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { ROOT, serve } from './server.mjs';
import { BROWSER_FLAGS, freePort, openPage as openE2E, pressRecompute, vitePreview, waitAttr } from '../e2e/harness.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const BASE_ARGS = BROWSER_FLAGS;
const WEBGPU_ARGS = ['--enable-unsafe-webgpu'];
const CHECK_TIMEOUT_MS = 10 * 60 * 1000;

for (const f of ['public/wasm/lnx-gpu.mjs', 'public/wasm/lnx-gpu.wasm', 'public/wasm/lnx-mt.mjs']) {
  if (!existsSync(`${ROOT}/${f}`)) {
    console.error(`missing ${f}: build the WebAssembly modules first (scripts/build-wasm.sh)`);
    process.exit(1);
  }
}
process.env.XDG_RUNTIME_DIR ??= '/tmp';

let passed = 0,
  failed = 0;
function report(name, r, ms) {
  if (r.pass) passed++;
  else failed++;
  console.log(`${r.pass ? 'ok  ' : 'FAIL'}  ${name} (${(ms / 1000).toFixed(1)} s)\n      ${r.detail}`);
}

async function openPage(browser, url) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(`${url}/tests/webgpu/page.html`);
  await page.waitForFunction(() => window.checksReady === true);
  return { page, errors };
}

async function runChecks(page, names) {
  for (const name of names) {
    const t0 = Date.now();
    let r;
    try {
      r = await Promise.race([
        page.evaluate((n) => window.runCheck(n), name),
        new Promise((_, rej) => setTimeout(() => rej(new Error('timed out')), CHECK_TIMEOUT_MS)),
      ]);
    } catch (e) {
      r = { pass: false, detail: String(e.message ?? e) };
    }
    report(name, r, Date.now() - t0);
  }
}

// ---- the page: backend selection, a figure on WebGPU, the grid on both paths, device loss ----
const TINY_GRID = { layers: 2, d: 32, d_ff: 64, vocab: 32, seq: 8, batch: 2, steps: 6, placements: ['post', 'pre'], warmups: [0], lrs: [1e-3], seeds: [0] };
const SMALL_FIG3 = 'fig3.model=small&fig3.seeds=1&fig3.batches=1&fig3.depths=2';

async function pageChecks(launch) {
  if (!existsSync(`${ROOT}/dist/index.html`)) {
    report('page checks', { pass: false, detail: 'dist/ is missing: run npx vite build first' }, 0);
    return;
  }
  const preview = await vitePreview(await freePort());
  let browser = await launch(WEBGPU_ARGS);
  const open = async (query) => {
    const { page, errors } = await openE2E(browser, preview.url, { query });
    return { page, errors };
  };
  // a link starts a short run by itself and offers a longer one (result-slots LINK_BUDGET_MS; on
  // SwiftShader even a small probe can be longer): press Recompute when it is offered
  // `always`: start a reader's run even when the link's own one completed (a check that needs a run in
  // progress)
  const startFromLink = async (page, id, always = false) => {
    // the link's own start: done, or offered (at once, or after its first 3 s of running)
    const phase = await waitAttr(page, id, 'data-run', ['done', 'error', 'offered'], CHECK_TIMEOUT_MS);
    if (always || phase === 'offered') await pressRecompute(page, id);
  };
  const footer = (page) => page.$eval('.engine-line', (el) => ({ backend: el.dataset.backend, why: el.dataset.why, text: el.textContent }));
  // A check during which the browser itself went away (Chromium's process, not the page: seen once
  // in a fresh clone's npm test, 2 s into the quick map's check on a loaded machine, and not again
  // alone) runs once more in a new browser, and says so; a second loss, or any other failure, fails.
  const check = async (name, fn) => {
    const t0 = Date.now();
    const attempt = async () => {
      try {
        return await fn();
      } catch (e) {
        return { pass: false, detail: String(e.message ?? e).split('\n')[0] };
      }
    };
    let r = await attempt();
    // (the page's calls may fail a moment before the browser reports that it is gone)
    if (!r.pass && /has been closed/.test(r.detail) && browser.isConnected()) await new Promise((go) => setTimeout(go, 2000));
    if (!r.pass && !browser.isConnected()) {
      const lost = r.detail;
      browser = await launch(WEBGPU_ARGS);
      r = await attempt();
      r = { ...r, detail: `${r.detail} (the browser closed under the first try: "${lost}"; this is the second, in a new browser)` };
    }
    report(name, r, Date.now() - t0);
  };
  try {
    let cpuGrid = null;
    await check('page: a software adapter is not chosen by default; the footer says why', async () => {
      const { page } = await open(`?lang=en&${SMALL_FIG3}`);
      await startFromLink(page, 'fig3');
      await waitAttr(page, 'fig3', 'data-run', ['done', 'error'], 120000);
      const f = await footer(page);
      cpuGrid = await page.evaluate((c) => window.__lnx.grid(c), TINY_GRID);
      await page.context().close();
      const pass = f.backend === 'cpu-mt' && f.why === 'software' && /software one/.test(f.text);
      return { pass, detail: f.text };
    });
    await check('page: ?backend=webgpu runs Figure 3 on WebGPU, shown in the badge and the footer', async () => {
      const { page, errors } = await open(`?lang=en&backend=webgpu&${SMALL_FIG3}`);
      await startFromLink(page, 'fig3');
      await waitAttr(page, 'fig3', 'data-run', ['done', 'error'], CHECK_TIMEOUT_MS);
      const phase = await page.$eval('#fig3', (el) => el.dataset.run);
      const badge = await page.$eval('#fig3 .badge', (el) => el.textContent);
      const f = await footer(page);
      const gpuGrid = await page.evaluate((c) => window.__lnx.grid(c), TINY_GRID);
      // a grid on the article's text goes to the CPU engine (backend-choice.ts cpuOnlyJob): WebGPU refuses text
      const textGrid = await page
        .evaluate((c) => window.__lnx.grid(c), { ...TINY_GRID, vocab: 256, data: 'text', text_lang: 'en' })
        .catch((e) => ({ error: String(e) }));
      await page.context().close();
      const textOnCpu =
        !textGrid.error && textGrid.engine?.backend === undefined && textGrid.text?.[0]?.lang === 'en' && textGrid.runs.every((r) => r.status === 'ok');
      // the tiny grid on WebGPU (gpu-grid.ts over GpuTrainRun) against the CPU engine's GridRun
      let worst = 0;
      for (const r of gpuGrid.runs) {
        const c = cpuGrid?.runs.find((x) => x.placement === r.placement && x.seed === r.seed);
        if (!c || c.loss.length !== r.loss.length || r.loss.length !== TINY_GRID.steps)
          return { pass: false, detail: `grid runs differ in shape: ${r.placement} ${r.loss.length} vs ${c?.loss.length}` };
        r.loss.forEach((x, i) => (worst = Math.max(worst, Math.abs(x - c.loss[i]) / Math.abs(c.loss[i]))));
      }
      const pass =
        phase === 'done' &&
        /WebGPU/.test(badge) &&
        f.backend === 'webgpu' &&
        /WebGPU on/.test(f.text) &&
        gpuGrid.engine.backend === 'webgpu' &&
        worst <= 1e-4 &&
        textOnCpu &&
        errors.length === 0;
      return {
        pass,
        detail: `${f.text} | badge "${badge.trim()}" | tiny grid ${gpuGrid.runs.length} runs × ${TINY_GRID.steps} steps, GPU vs CPU losses max rel ${worst.toExponential(1)} (≤ 1e-4) | the same on the article's text: ${textGrid.error ?? `${textGrid.engine?.build}${textGrid.engine?.backend ? ` on ${textGrid.engine.backend}` : ''}, ${textGrid.runs?.length} runs`}${errors.length ? ` | errors: ${errors.slice(0, 2).join(' | ')}` : ''}`,
      };
    });
    // The phase diagram on WebGPU (wasm/gpu/gpu_phase_diagram.h, backend-choice.ts GPU_EXPERIMENTS):
    // Figure 15's quick map at a tiny size through the figure (its document drawn, its badge), then a
    // tiny diagram through the same worker path, whose progress says how its runs were batched: one
    // batch per shape (placement × depth), its runs (the lrs) side by side.
    await check('page: the quick map (Figure 15) runs batched on WebGPU and completes at a tiny size', async () => {
      const { page, errors } = await open(
        '?lang=en&backend=webgpu&fig15.placements=pre&fig15.depths=1&fig15.lrs=0.001,0.01&fig15.warmups=0&fig15.seeds=1&fig15.steps=3',
      );
      await startFromLink(page, 'fig15');
      await waitAttr(page, 'fig15', 'data-run', ['done', 'error'], CHECK_TIMEOUT_MS);
      const phase = await page.$eval('#fig15', (el) => el.dataset.run);
      const badge = await page.$eval('#fig15 .badge', (el) => el.textContent).catch(() => '');
      const tiny = { ...TINY_GRID, steps: 6, placements: ['post', 'pre'], depths: [1], lrs: [1e-3, 1], warmups: [0], seeds: [0] };
      delete tiny.layers;
      const { doc, batches } = await page.evaluate((c) => window.__lnx.experiment('phase-diagram', c), tiny);
      await page.context().close();
      const outcomes = doc.cells.map((c) => `${c.placement} lr ${c.lr}: ${c.outcome}`).join(', ');
      const pass =
        phase === 'done' &&
        /WebGPU/.test(badge) &&
        doc.engine?.backend === 'webgpu' &&
        doc.cells.length === 4 &&
        Array.isArray(batches) &&
        batches.length === 2 &&
        batches.every((b) => b.runs === 2 && b.dispatches > 0) &&
        errors.length === 0;
      return {
        pass,
        detail: `Figure 15 ${phase}, badge "${badge.trim()}" | tiny diagram on ${doc.engine?.backend ?? 'the CPU'}: ${outcomes}; batches ${JSON.stringify(batches)}${errors.length ? ` | errors: ${errors.slice(0, 2).join(' | ')}` : ''}`,
      };
    });
    // Opens the page on WebGPU with `query`, starts figure `id`'s run, loses the device once the run
    // is past 40%, and waits for it to end: what the figure and the footer then say.
    const loseMidRun = async (id, query, kind = 'continued') => {
      const { page } = await open(`?lang=en&backend=webgpu&${query}`);
      await startFromLink(page, id, true);
      await page.waitForFunction(
        (id) => document.getElementById(id)?.dataset.run === 'running' && Number(document.querySelector(`#${id} .run progress`)?.value ?? 0) >= 40,
        id,
        { timeout: CHECK_TIMEOUT_MS },
      );
      const before = await footer(page);
      const pct = await page.$eval(`#${id} .run progress`, (el) => Number(el.value));
      await page.evaluate(() => window.__lnx.loseGpu());
      await waitAttr(page, id, 'data-run', ['done', 'error'], CHECK_TIMEOUT_MS);
      const phase = await page.$eval(`#${id}`, (el) => el.dataset.run);
      const note = await page.$eval(`#${id} [data-fallback="cpu"]`, (el) => ({ kind: el.dataset.handoff, text: el.textContent })).catch(() => null);
      const after = await footer(page);
      const info = await page.evaluate(() => window.__lnx.info());
      await page.context().close();
      // the note names the cause (the lost device, not the failed readback it caused)
      const movedToCpu =
        before.backend === 'webgpu' &&
        phase === 'done' &&
        note?.kind === kind &&
        /device lost/.test(note.text) &&
        after.backend === 'cpu-mt' &&
        after.why === 'gpu-failed' &&
        info.backend === 'cpu-mt';
      return { movedToCpu, note, detail: `lost at ${pct.toFixed(0)}%; ${phase}; footer: ${after.text} | note (${note?.kind}): ${note?.text}` };
    };
    await check("page: the device lost mid-grid → Figure 4 continues on the CPU from the GPU's checkpoints, and says so", async () => {
      // past the first checkpoint (every 8 steps of 24), not yet done
      const r = await loseMidRun(
        'fig4',
        'fig4.layers=2&fig4.d=32&fig4.d_ff=64&fig4.batch=2&fig4.seq=8&fig4.steps=24&fig4.seeds=1&fig4.warmups=0&fig4.lrs=0.001',
      );
      const from = Number(/from step (\d+)/.exec(r.note?.text ?? '')?.[1] ?? 0);
      return { pass: r.movedToCpu && from >= 8 && from % 8 === 0, detail: r.detail };
    });
    await check("page: the device lost mid-probe → Figure 3 goes on on the CPU from the GPU's finished jobs, and says so", async () => {
      // 2 placements × 2 seeds × (the full model + 2 depths) = 12 jobs
      const r = await loseMidRun('fig3', 'fig3.model=small&fig3.seeds=2&fig3.batches=1&fig3.depths=2,3');
      const m = /(\d+) of its (\d+) jobs/.exec(r.note?.text ?? '');
      return { pass: r.movedToCpu && !!m && Number(m[1]) >= 1 && Number(m[1]) < 12 && m[2] === '12', detail: r.detail };
    });
    await check('page: the device lost mid-map → Figure 15 restarts on the CPU, and says so', async () => {
      // a phase diagram has no hand-off (wasm/gpu/gpu_phase_diagram.h): its runs start again on the CPU
      const r = await loseMidRun('fig15', 'fig15.placements=pre&fig15.depths=1&fig15.lrs=0.001,0.01&fig15.warmups=0&fig15.seeds=1&fig15.steps=12', 'restarted');
      return { pass: r.movedToCpu && /restarted on the CPU/.test(r.note?.text ?? ''), detail: r.detail };
    });
  } finally {
    await browser.close();
    preview.child.kill();
  }
}

const server = await serve();
const launch = (extra) => chromium.launch({ executablePath: CHROMIUM, args: [...BASE_ARGS, ...extra], headless: true });
try {
  // 1. With WebGPU (SwiftShader).
  const gpuBrowser = await launch(WEBGPU_ARGS);
  const { page, errors } = await openPage(gpuBrowser, server.url);
  const isolated = await page.evaluate(() => self.crossOriginIsolated);
  // The engine's GPU-vs-CPU checks (engine-checks.js) run in `npm run test:gpu-node` over the same
  // Dawn + SwiftShader stack in Node; here only the adapter check of that list runs (--all runs it
  // whole), next to the selection and fallback checks that need the browser.
  const all = process.argv.includes('--all');
  const { ENGINE_CHECK_NAMES } = await import('./engine-checks.js');
  const names = (await page.evaluate(() => window.runCheck('__list'))).filter(
    (n) => !n.startsWith('no adapter') && (all || !ENGINE_CHECK_NAMES.slice(1).includes(n)),
  );
  console.log(`WebGPU checks in headless Chromium (cross-origin isolated: ${isolated})`);
  await runChecks(page, names);
  const unexpected = errors.filter((e) => !/favicon/.test(e));
  report('no uncaught errors in the page or the worker', { pass: unexpected.length === 0, detail: unexpected.slice(0, 3).join(' | ') || 'none' }, 0);
  await gpuBrowser.close();

  // 2. Without --enable-unsafe-webgpu: navigator.gpu is there, requestAdapter() gives null.
  const plainBrowser = await launch([]);
  const plain = await openPage(plainBrowser, server.url);
  console.log('Without WebGPU');
  await runChecks(plain.page, ['no adapter: selection falls back to the CPU']);
  await plainBrowser.close();

  // 3. The built page (dist/, vite preview: cross-origin isolated), whose worker picks the backend.
  console.log('The page (dist/) on WebGPU');
  await pageChecks(launch);
} catch (e) {
  failed++;
  console.log(`FAIL  harness: ${e.stack ?? e}`);
} finally {
  await server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
