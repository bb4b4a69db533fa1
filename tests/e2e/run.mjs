// tests/e2e/run.mjs — end-to-end checks of the built page in headless Chromium (playwright-core,
// the system's /usr/bin/chromium; no browser is ever downloaded).
//
// Expects dist/ to be built (`npm run build`); builds nothing itself. Starts
//   1. `vite preview` (COOP/COEP → cross-origin isolated → threaded engine lnx-mt), and
//   2. a plain static server over dist/ without those headers (→ single-threaded lnx-st),
// both on free loopback ports, runs the checks, saves screenshots to test-artifacts/, prints
// `N passed, M failed` as its last line and exits non-zero on any failure.
// Environment: LNX_FIXTURES=dir also serves /data and /wasm from dir on both servers (development
// before the engine's real output exists); E2E_ONLY=substring runs only matching checks.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import { chromium } from 'playwright-core';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const dist = join(root, 'dist');
const artifacts = join(root, 'test-artifacts');
const fixtures = process.env.LNX_FIXTURES ? resolve(process.env.LNX_FIXTURES) : null;
const only = process.env.E2E_ONLY ?? '';
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const CJK = /[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]/;

// ---- servers -----------------------------------------------------------------------------------
function freePort() {
  return new Promise((res, rej) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm', '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.png': 'image/png',
};

/** A plain static server over dist/ with no COOP/COEP headers. */
function staticServer(port) {
  const server = createServer((req, res) => {
    let p = decodeURIComponent((req.url ?? '/').split('?')[0]);
    if (p.endsWith('/')) p += 'index.html';
    const candidates = [join(dist, normalize(p))];
    if (fixtures && /^\/(data|wasm)\//.test(p)) candidates.push(join(fixtures, normalize(p)));
    const file = candidates.find((f) => f.startsWith(dist) || (fixtures && f.startsWith(fixtures)) ? existsSync(f) && statSync(f).isFile() : false);
    if (!file) {
      res.writeHead(404);
      return res.end('not found');
    }
    res.writeHead(200, { 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((r) => server.listen(port, '127.0.0.1', () => r(server)));
}

async function vitePreview(port) {
  const child = spawn(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
    cwd: root,
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(url);
      if (r.ok) return { child, url };
    } catch {}
    if (child.exitCode != null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error(`vite preview did not start:\n${log}`);
}

// ---- test harness ------------------------------------------------------------------------------
const results = [];
async function check(name, fn) {
  if (only && !name.includes(only)) return;
  const t0 = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`  ok    ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    results.push({ name, ok: false, error: e });
    console.log(`  FAIL  ${name}: ${(e && e.message) || e}`);
  }
}
function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

async function openPage(browser, url, { width = 1280, height = 900, lang = 'en', theme = 'light' } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${url}?lang=${lang}&theme=${theme}`, { waitUntil: 'load' });
  return { page, context, errors };
}

const FIGS = ['fig1', 'fig2', 'fig3', 'fig4'];
async function waitReady(page, timeout = 30000) {
  for (const id of FIGS) {
    await page.waitForSelector(`#${id}[data-state="ready"]`, { timeout }).catch(async () => {
      const s = await page.$eval(`#${id}`, (el) => el.getAttribute('data-state')).catch(() => 'absent');
      throw new Error(`#${id} did not reach data-state=ready (state: ${s})`);
    });
  }
}
const readout = (page, id) => page.$eval(`#${id} .readout`, (el) => el.textContent.trim());

/** Open a figure's settings <details>. */
async function openSettings(page, id) {
  await page.$eval(`#${id} details`, (d) => (d.open = true));
}

/** Click Recompute and wait until the run is done; returns phases seen. */
async function recomputeAndWait(page, id, timeout) {
  await page.click(`#${id} button.recompute`);
  await page.waitForSelector(`#${id}[data-run="running"], #${id}[data-run="done"], #${id}[data-run="error"]`, { timeout: 15000 });
  const h = await page.waitForSelector(`#${id}[data-run="done"], #${id}[data-run="error"], #${id}[data-run="cancelled"]`, { timeout });
  const phase = await h.getAttribute('data-run');
  if (phase !== 'done') {
    const msg = await page.$eval(`#${id} .run .status`, (el) => el.textContent).catch(() => '');
    throw new Error(`#${id} live run ended with ${phase}: ${msg}`);
  }
  return page.$eval(`#${id} .badge`, (el) => ({ source: el.getAttribute('data-source'), text: el.textContent }));
}

async function shoot(page, name, selector) {
  const path = join(artifacts, `${name}.png`);
  if (!selector) return page.screenshot({ path, fullPage: true, animations: 'disabled' });
  const el = await page.$(selector);
  try {
    await el.screenshot({ path, animations: 'disabled', timeout: 15000 });
  } catch {
    // a busy 2-core machine can starve the "element is stable" wait: clip the page instead
    const clip = await el.evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height };
    });
    await page.screenshot({ path, fullPage: true, clip, animations: 'disabled' });
  }
}

// ---- main --------------------------------------------------------------------------------------
async function main() {
  if (!existsSync(join(dist, 'index.html'))) {
    console.log('dist/ is not built: run `npm run build` first');
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  mkdirSync(artifacts, { recursive: true });
  const [pPrev, pPlain] = [await freePort(), await freePort()];
  const preview = await vitePreview(pPrev);
  const plain = await staticServer(pPlain);
  const plainUrl = `http://127.0.0.1:${pPlain}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  console.log(`preview ${preview.url} (COOP/COEP), plain ${plainUrl}`);

  try {
    // English page on the isolated server ------------------------------------------------------
    const en = await openPage(browser, preview.url, { lang: 'en' });
    const { page } = en;

    await check('page loads (en) and every figure reaches data-state=ready', async () => {
      await waitReady(page);
    });
    await check('no console errors on load', async () => {
      await page.waitForTimeout(500);
      assert(en.errors.length === 0, `console errors:\n${en.errors.join('\n')}`);
    });
    await check('no unresolved {{binding}} markers in the prose', async () => {
      const missing = await page.$$eval('.bound.missing', (els) => els.map((e) => e.textContent));
      assert(missing.length === 0, `unknown keys: ${missing.join(', ')}`);
    });
    await check('page is cross-origin isolated under vite preview', async () => {
      assert((await page.evaluate(() => self.crossOriginIsolated)) === true, 'crossOriginIsolated is false');
    });

    await check('Figure 1: step buttons move the highlighted node; Final LN click toggles', async () => {
      const fig = '#fig1';
      const before = await page.$eval(fig, (el) => ({ step: el.dataset.step, cur: [...el.querySelectorAll('.current')].map((n) => n.textContent).join('|') }));
      const buttons = await page.$$(`${fig} .controls button`);
      assert(buttons.length >= 2, 'no step buttons');
      await buttons[1].click();
      await page.waitForTimeout(150);
      const after = await page.$eval(fig, (el) => ({ step: el.dataset.step, cur: [...el.querySelectorAll('.current')].map((n) => n.textContent).join('|') }));
      assert(after.step !== before.step, `data-step did not change (${before.step})`);
      assert(after.cur !== before.cur, `highlighted node did not change (${before.cur})`);
      const open0 = await page.$eval(fig, (el) => el.dataset.finalLn);
      await page.click(`${fig} .final-ln`);
      await page.waitForTimeout(150);
      const open1 = await page.$eval(fig, (el) => el.dataset.finalLn);
      assert(open0 !== open1, `Final LN did not toggle (${open0})`);
      await page.click(`${fig} .final-ln`);
    });

    await check('Figure 2: ArrowUp changes the readout', async () => {
      await page.focus('#fig2 [role="slider"]');
      await page.keyboard.press('ArrowDown');
      const r0 = await readout(page, 'fig2');
      await page.keyboard.press('ArrowUp');
      await page.waitForTimeout(100);
      const r1 = await readout(page, 'fig2');
      assert(r0 && r1 && r0 !== r1, `readout unchanged: "${r0}"`);
    });

    await check('Figure 3: hovering a panel gives a readout', async () => {
      const hit = await page.$('#fig3 .panel .hit');
      await hit.scrollIntoViewIfNeeded();
      const box = await hit.boundingBox();
      await page.mouse.move(box.x + box.width * 0.1, box.y + box.height / 2);
      await page.waitForTimeout(100);
      const r = await readout(page, 'fig3');
      assert(/\d/.test(r), `no readout: "${r}"`);
    });

    await check('Figure 4: hovering a panel shows the seeds and a readout', async () => {
      const hit = await page.$('#fig4 .panel .hit');
      await hit.scrollIntoViewIfNeeded();
      const box = await hit.boundingBox();
      await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
      await page.waitForTimeout(150);
      const seeds = await page.$$eval('#fig4 path.line[data-name="seed"]', (ps) => ps.length);
      const r = await readout(page, 'fig4');
      await shoot(page, 'en-fig4-hover', '#fig4');
      await page.mouse.move(0, 0);
      assert(seeds > 0, 'no seed lines on hover');
      assert(/\d/.test(r), `no readout: "${r}"`);
    });

    await check('Figure 4: out-of-range settings show an inline error and disable Recompute', async () => {
      await openSettings(page, 'fig4');
      await page.fill('#fig4 input[name="steps"]', '5');
      await page.waitForSelector('#fig4 .err');
      assert(await page.$eval('#fig4 button.recompute', (b) => b.disabled), 'Recompute not disabled');
      await page.fill('#fig4 input[name="steps"]', '500');
    });

    await check('every figure has a caption, a keyboard path and a data-table view', async () => {
      for (const id of ['fig2', 'fig3', 'fig4']) {
        assert(await page.$(`#${id} figcaption`), `#${id}: no caption`);
        assert(await page.$(`#${id} [tabindex="0"]`), `#${id}: nothing focusable`);
        assert(await page.$(`#${id} [aria-live]`), `#${id}: no aria-live readout`);
        await page.click(`#${id} .table-toggle`);
        const rows = await page.$$eval(`#${id} table tbody tr`, (r) => r.length);
        assert(rows > 0, `#${id}: empty data table`);
        if (id === 'fig3') await shoot(page, 'en-fig3-table', '#fig3');
        await page.click(`#${id} .table-toggle`);
        assert(await page.$(`#${id} svg`), `#${id}: chart did not come back`);
      }
    });

    // screenshots before any live run (precomputed)
    await check('screenshots (en, desktop, light)', async () => {
      await page.mouse.move(0, 0);
      await shoot(page, 'en-full');
      for (const id of FIGS) await shoot(page, `en-${id}`, `#${id}`);
    });

    await check('Figure 3: Cancel stops a live run and keeps the precomputed result drawn', async () => {
      await page.click('#fig3 button.recompute');
      await page.waitForSelector('#fig3[data-run="running"]', { timeout: 15000 });
      await page.waitForSelector('#fig3 .run progress', { timeout: 15000 });
      // tab hidden → the run pauses and says so; visible again → it resumes
      const setHidden = (h) =>
        page.evaluate((hidden) => {
          Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
          document.dispatchEvent(new Event('visibilitychange'));
        }, h);
      await setHidden(true);
      await page.waitForFunction(() => /paus|暂停/i.test(document.querySelector('#fig3 .run .status')?.textContent ?? ''), null, { timeout: 10000 });
      await shoot(page, 'en-fig3-paused', '#fig3 .run');
      await setHidden(false);
      await page.waitForFunction(() => !/paus|暂停/i.test(document.querySelector('#fig3 .run .status')?.textContent ?? ''), null, { timeout: 20000 });
      await page.click('#fig3 button.cancel');
      await page.waitForSelector('#fig3[data-run="cancelled"]', { timeout: 60000 });
      const st = await page.$eval('#fig3', (el) => el.dataset.state);
      const src = await page.$eval('#fig3 .badge', (el) => el.getAttribute('data-source'));
      const msg = await page.$eval('#fig3 .run .status', (el) => el.textContent);
      assert(st === 'ready', `data-state ${st}`);
      assert(src === 'precomputed', `badge source ${src}`);
      assert(msg.trim().length > 0, 'no status message after cancel');
    });

    await check('Figure 3: live recompute with the small config completes, badge says live (wasm-mt)', async () => {
      await openSettings(page, 'fig3');
      await page.check('#fig3 input[name="small"]');
      const badge = await recomputeAndWait(page, 'fig3', 180000);
      assert(badge.source === 'live', `badge source ${badge.source}: ${badge.text}`);
      assert(/wasm-mt/.test(badge.text), `expected the threaded flavour in "${badge.text}"`);
      await shoot(page, 'en-fig3-live', '#fig3');
    });

    await check('Figure 4: a short live run (20 steps, 1 seed) streams and completes', async () => {
      await openSettings(page, 'fig4');
      await page.fill('#fig4 input[name="lrs"]', '0.001');
      await page.fill('#fig4 input[name="warmups"]', '0, 300');
      await page.fill('#fig4 input[name="steps"]', '20');
      await page.fill('#fig4 input[name="seeds"]', '1');
      await page.click('#fig4 button.recompute');
      const streamed = await page
        .waitForSelector('#fig4 .panels[data-streaming="true"]', { timeout: 60000 })
        .then(() => true, () => false);
      if (streamed) await shoot(page, 'en-fig4-streaming', '#fig4').catch(() => {});
      const h = await page.waitForSelector('#fig4[data-run="done"], #fig4[data-run="error"]', { timeout: 300000 });
      const phase = await h.getAttribute('data-run');
      const msg = await page.$eval('#fig4 .run', (el) => el.textContent);
      assert(phase === 'done', `ended with ${phase}: ${msg}`);
      assert(streamed, 'never saw streaming partial curves');
      const src = await page.$eval('#fig4 .badge', (el) => el.getAttribute('data-source'));
      assert(src === 'live', `badge source ${src}`);
      const lens = await page.$$eval('#fig4 path.line[data-name^="p"]', (ps) => ps.map((p) => (p.getAttribute('d') ?? '').length));
      assert(lens.some((n) => n > 0), 'no curves drawn');
      await shoot(page, 'en-fig4-live', '#fig4');
    });

    await check('language toggle switches all headings to Chinese', async () => {
      const enHeads = await page.$$eval('h1, h2, h3, h4, h5', (els) => els.map((e) => e.textContent.trim()));
      const bad = enHeads.filter((h) => CJK.test(h));
      assert(bad.length === 0, `CJK in English headings: ${bad.slice(0, 5).join(' | ')}`);
      await page.click('.lang-toggle');
      await page.waitForSelector('.page[data-lang="zh"]');
      await page.waitForFunction(() => /[\u4e00-\u9fff]/.test(document.querySelector('h1')?.textContent ?? ''));
      const zhHeads = await page.$$eval('h1, h2, h4', (els) => els.map((e) => e.textContent.trim()));
      const latin = zhHeads.filter((h) => !/[\u4e00-\u9fff]/.test(h));
      assert(latin.length === 0, `headings without Chinese: ${latin.slice(0, 5).join(' | ')}`);
      const same = zhHeads.filter((h) => enHeads.includes(h));
      assert(same.length === 0, `headings unchanged: ${same.slice(0, 5).join(' | ')}`);
      await page.click('.lang-toggle');
      await page.waitForSelector('.page[data-lang="en"]');
    });
    await en.context.close();

    // Chinese, dark, phone ----------------------------------------------------------------------
    await check('screenshots (zh, desktop)', async () => {
      const zh = await openPage(browser, preview.url, { lang: 'zh' });
      await waitReady(zh.page);
      await shoot(zh.page, 'zh-full');
      for (const id of FIGS) await shoot(zh.page, `zh-${id}`, `#${id}`);
      assert(zh.errors.length === 0, `console errors:\n${zh.errors.join('\n')}`);
      await zh.context.close();
    });
    await check('screenshots (en, dark)', async () => {
      const dk = await openPage(browser, preview.url, { lang: 'en', theme: 'dark' });
      await waitReady(dk.page);
      assert((await dk.page.$eval('html', (h) => h.dataset.theme)) === 'dark', 'data-theme is not dark');
      await shoot(dk.page, 'en-dark-full');
      for (const id of FIGS) await shoot(dk.page, `en-dark-${id}`, `#${id}`);
      await dk.context.close();
    });
    await check('phone width (390 px): no horizontal overflow; screenshots', async () => {
      for (const lang of ['en', 'zh']) {
        const ph = await openPage(browser, preview.url, { lang, width: 390, height: 844 });
        await waitReady(ph.page);
        const over = await ph.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        await shoot(ph.page, `${lang}-phone-full`);
        for (const id of FIGS) await shoot(ph.page, `${lang}-phone-${id}`, `#${id}`);
        await ph.context.close();
        assert(over <= 1, `${lang}: page is ${over}px wider than the viewport`);
      }
    });

    // Plain server: no isolation → single-threaded engine -----------------------------------------
    await check('plain server without COOP/COEP: not isolated, figures ready, live run uses wasm-st', async () => {
      const st = await openPage(browser, plainUrl, { lang: 'en' });
      await waitReady(st.page);
      assert((await st.page.evaluate(() => self.crossOriginIsolated)) === false, 'unexpectedly cross-origin isolated');
      await openSettings(st.page, 'fig3');
      await st.page.check('#fig3 input[name="small"]');
      const badge = await recomputeAndWait(st.page, 'fig3', 180000);
      assert(/wasm-st/.test(badge.text), `expected wasm-st in "${badge.text}"`);
      assert(st.errors.length === 0, `console errors:\n${st.errors.join('\n')}`);
      await st.context.close();
    });
  } finally {
    await browser.close().catch(() => {});
    preview.child.kill();
    plain.close();
  }

  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  console.log(`screenshots in ${artifacts}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  console.log(`${results.filter((r) => r.ok).length} passed, ${results.filter((r) => !r.ok).length + 1} failed`);
  process.exit(1);
});
