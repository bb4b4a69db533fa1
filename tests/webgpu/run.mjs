#!/usr/bin/env node
// run.mjs — `npm run test:webgpu`: the WebGPU path against the CPU path in headless Chromium.
//
// Serves the repository (tests/webgpu/server.mjs, COOP/COEP so the page is cross-origin isolated),
// opens tests/webgpu/page.html in Chromium with --enable-unsafe-webgpu (a SwiftShader adapter on
// a machine without a GPU: correct but slow, so this is a correctness test only) and runs each
// check of checks.worker.js in a module worker: the matmul kernel, the gradients of one step, 20
// Adam steps, the probe statistics, the backend selection (SwiftShader is a software adapter: not
// chosen by default, chosen and self-tested under ?backend=webgpu), a diverging run, device loss. Then a
// second browser without the flag (navigator.gpu present, no adapter) runs the no-adapter check.
// Prints one line per check, then "N passed, M failed"; exits 1 on any failure.
// Needs public/wasm/lnx-gpu.* (scripts/build-wasm.sh) and /usr/bin/chromium (or $CHROMIUM).
// Leaves out: timing (bench/webgpu_bench.mjs).
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { ROOT, serve } from './server.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const BASE_ARGS = [
  '--no-sandbox', '--disable-gpu-sandbox', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run',
];
const WEBGPU_ARGS = ['--enable-unsafe-webgpu'];
const CHECK_TIMEOUT_MS = 10 * 60 * 1000;

for (const f of ['public/wasm/lnx-gpu.mjs', 'public/wasm/lnx-gpu.wasm', 'public/wasm/lnx-mt.mjs']) {
  if (!existsSync(`${ROOT}/${f}`)) {
    console.error(`missing ${f}: build the WebAssembly modules first (scripts/build-wasm.sh)`);
    process.exit(1);
  }
}
process.env.XDG_RUNTIME_DIR ??= '/tmp';

let passed = 0, failed = 0;
function report(name, r, ms) {
  r.pass ? passed++ : failed++;
  console.log(`${r.pass ? 'ok  ' : 'FAIL'}  ${name} (${(ms / 1000).toFixed(1)} s)\n      ${r.detail}`);
}

async function openPage(browser, url) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
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

const server = await serve();
const launch = (extra) => chromium.launch({ executablePath: CHROMIUM, args: [...BASE_ARGS, ...extra], headless: true });
try {
  // 1. With WebGPU (SwiftShader).
  const gpuBrowser = await launch(WEBGPU_ARGS);
  const { page, errors } = await openPage(gpuBrowser, server.url);
  const isolated = await page.evaluate(() => self.crossOriginIsolated);
  const names = (await page.evaluate(() => window.runCheck('__list'))).filter((n) => !n.startsWith('no adapter'));
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
} catch (e) {
  failed++;
  console.log(`FAIL  harness: ${e.stack ?? e}`);
} finally {
  await server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
