#!/usr/bin/env node
// page_bench.mjs — the page in headless Chromium, for scripts/bench.mjs (section "page"):
//   - time from navigation start to all four figures drawn on the page (an <svg> in each of
//     #fig1 … #fig4, then the next frame: the article the build wrote into the page,
//     scripts/prerender.mjs), and to all four live and interactive (data-state="ready") when the
//     reader goes straight to each in turn (each becomes live as it nears the viewport:
//     web/src/lib/islands.ts); vite preview of dist/, localhost, COOP/COEP; median of 5 fresh contexts,
//   - transfer size of the JS, CSS and each wasm flavour in dist/ (raw and gzip -9),
//   - the estimate before compute (lib/cost.ts × lib/speed.svelte.ts): the page's own calibration
//     (hovering Recompute, lib/calibrate.ts) gives the speed; then the estimate shown on Recompute
//     for the quick look (whose time is itself a target: ≤ 60 s on 2 cores), a 4-run grid and
//     Figure 3's small probe, against the wall time each then takes,
//   - with --grid: the in-browser wall time of the full Figure 4 grid (16 runs × 500 steps) on the
//     threaded build. That takes minutes; without --grid it is not measured.
// Prints one JSON line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM, FLAGS, freePort, vitePreview } from '../tests/e2e/harness.mjs';
import { openSettings, pressRecompute, waitAttr, waitReady } from '../tests/e2e/harness.mjs';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const withGrid = process.argv.includes('--grid');

function walk(dir) {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
}
const size = (files) => {
  const raw = files.reduce((a, f) => a + statSync(f).size, 0);
  const gzip = files.reduce((a, f) => a + gzipSync(readFileSync(f), { level: 9 }).length, 0);
  return { raw, gzip };
};
const files = walk(dist);
const assets = [
  { name: 'HTML (index.html: the article, prerendered with its figures)', ...size(files.filter((f) => f.endsWith('/index.html') && !f.includes('/assets/'))) },
  { name: 'JavaScript (page + worker)', ...size(files.filter((f) => /\/assets\/.*\.js$/.test(f))) },
  { name: 'CSS', ...size(files.filter((f) => f.endsWith('.css'))) },
  { name: 'KaTeX fonts (woff2)', ...size(files.filter((f) => f.endsWith('.woff2'))) },
  { name: 'wasm-st: lnx-st.wasm + glue', ...size(files.filter((f) => /lnx-st\.(wasm|mjs)$/.test(f))) },
  { name: 'wasm-mt: lnx-mt.wasm + glue + worker', ...size(files.filter((f) => /lnx-mt\.(wasm|mjs|worker\.js)$/.test(f))) },
  { name: 'wasm-st-fma: lnx-st-fma.wasm + glue', ...size(files.filter((f) => /lnx-st-fma\.(wasm|mjs)$/.test(f))) },
  {
    name: 'wasm-mt-fma: lnx-mt-fma.wasm + glue + worker (what Chromium loads on the preview server)',
    ...size(files.filter((f) => /lnx-mt-fma\.(wasm|mjs|worker\.js)$/.test(f))),
  },
  { name: 'precomputed data (JSON)', ...size(files.filter((f) => /\/data\/.*\.json$/.test(f))) },
];

const { child: server, url } = await vitePreview(await freePort());
const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
const FOUR = ['fig1', 'fig2', 'fig3', 'fig4'];
const drawnTimes = [];
const times = [];
for (let i = 0; i < 5; i++) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(`${url}?lang=en`, { waitUntil: 'commit' });
  await page.waitForFunction((ids) => ids.every((id) => document.getElementById(id)?.querySelector('svg')), FOUR, { timeout: 60000, polling: 10 });
  drawnTimes.push(await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(performance.now())))));
  // each figure becomes live as it nears the viewport (web/src/lib/islands.ts): a reader going
  // straight to each in turn
  for (const id of FOUR) {
    await page.$eval(`#${id}`, (el) => el.scrollIntoView({ block: 'center' }));
    await page.waitForFunction((id) => document.getElementById(id)?.dataset.state === 'ready', id, { timeout: 60000, polling: 10 });
  }
  times.push(await page.evaluate(() => performance.now()));
  await ctx.close();
}
times.sort((a, b) => a - b);
drawnTimes.sort((a, b) => a - b);
const prerendered = readFileSync(join(root, 'dist/index.html'), 'utf8').includes('data-prerendered');
const out = {
  measured: new Date().toISOString(),
  figures_drawn_ms: drawnTimes[2],
  figures_drawn_all_ms: drawnTimes,
  figures_ready_ms: times[2],
  figures_ready_all_ms: times,
  prerendered,
  assets,
};
{
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  // the one calibration the page runs when the reader reaches for Recompute (lib/calibrate.ts)
  process.stderr.write('page-bench: estimate: calibrating\n');
  await page.goto(`${url}?lang=en`);
  // (Figure 4 becomes live as it nears the viewport: web/src/lib/islands.ts)
  await waitReady(page, 30000, ['fig4'], { rest: false });
  const tc = Date.now();
  await page.hover('#fig4 button.recompute');
  await page.waitForSelector('#fig4 button.recompute .estimate', { timeout: 120000 });
  out.calibration_ms = Date.now() - tc;
  const timed = async (id, prepare) => {
    process.stderr.write(`page-bench: estimate: ${id}\n`);
    await waitReady(page, 30000, [id], { rest: false });
    await openSettings(page, id);
    await prepare();
    const [est, shown] = await page.$eval(`#${id} button.recompute .estimate`, (el) => [Number(el.dataset.estimateMs), el.textContent.trim()]);
    // the figure's run phases from here on (the previous run's 'done' must not count)
    await page.evaluate((i) => {
      const el = document.getElementById(i);
      window.__phases = [];
      new MutationObserver(() => window.__phases.push(el.dataset.run)).observe(el, { attributes: true, attributeFilter: ['data-run'] });
    }, id);
    const t0 = Date.now();
    await page.click(`#${id} button.recompute`);
    await page.waitForFunction(
      () => {
        const p = window.__phases,
          r = p.indexOf('running');
        return r >= 0 && p.slice(r).some((x) => x === 'done' || x === 'error');
      },
      null,
      { timeout: 3600000, polling: 50 },
    );
    const actual = Date.now() - t0;
    return { estimate_ms: est, shown, actual_ms: actual, error: (actual - est) / est };
  };
  out.estimate = {
    learned_from: `the calibration (${(out.calibration_ms / 1000).toFixed(1)} s from hovering Recompute to the estimate, engine start-up included)`,
    quick: {
      what: 'Figure 4: the quick look (16 runs × 200 steps, 6 layers, B = 2, n = 32)',
      ...(await timed('fig4', async () => {
        await page.click('#fig4 button[data-preset="quick"]');
      })),
    },
    grid: {
      what: 'Figure 4: 8 runs × 200 steps at the article’s model (the full preset, 1 seed)',
      ...(await timed('fig4', async () => {
        await page.click('#fig4 button[data-preset="full"]');
        await page.fill('#fig4 input[name="steps"]', '200');
        await page.fill('#fig4 input[name="seeds"]', '1');
      })),
    },
    probe: {
      what: 'Figure 3: the small setting',
      ...(await timed('fig3', async () => {
        await page.check('#fig3 input[name="small"]');
      })),
    },
  };
  await ctx.close();
}
if (withGrid) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(`${url}?lang=en`);
  // (Figure 4 becomes live as it nears the viewport: web/src/lib/islands.ts)
  await waitReady(page, 30000, ['fig4'], { rest: false });
  const t0 = Date.now();
  // (a run estimated past 3 minutes asks first, and is answered yes: harness.mjs pressRecompute)
  await pressRecompute(page, 'fig4');
  await waitAttr(page, 'fig4', 'data-run', ['done', 'error'], 3 * 3600 * 1000);
  out.grid_seconds = (Date.now() - t0) / 1000;
  out.grid_flavour = await page.$eval('#fig4 .badge', (el) => el.textContent.trim());
  out.grid_threads = await page.evaluate(() => (self.crossOriginIsolated ? 'threaded build' : 'single-threaded build'));
  await ctx.close();
}
await browser.close();
server.kill();
console.log(JSON.stringify(out));
process.exit(0);
