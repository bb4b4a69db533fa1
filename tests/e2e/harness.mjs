// tests/e2e/harness.mjs — what the end-to-end (run.mjs) and robustness (../robustness/run.mjs)
// runners (and the benchmarks) share: free ports, a plain static server (no COOP/COEP), `vite preview`,
// the Chromium launch flags, a check() harness that records results, page helpers and screenshots.
// Nothing here downloads a browser: Chromium is the system's /usr/bin/chromium (or $CHROMIUM).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { closeSync, existsSync, openSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import { inflateSync } from 'node:zlib';

export const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const dist = join(root, 'dist');
export const artifacts = join(root, 'test-artifacts');
export const fixtures = process.env.LNX_FIXTURES ? resolve(process.env.LNX_FIXTURES) : null;
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/** Chromium's flags for every test and benchmark run (the WebGPU ones add theirs): no sandbox, no
 *  network or updates of its own */
export const BROWSER_FLAGS = [
  '--no-sandbox',
  '--disable-gpu-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const FLAGS = ['--headless', ...BROWSER_FLAGS];
/** The tests' pages (end-to-end, robustness, web-found; not the WebGPU ones, not the benchmarks, which
 *  keep FLAGS): no GPU process, so the compositor rasters in software instead of through SwiftShader's
 *  emulated GL. The same checks pass; the end-to-end run's early part cost 485 CPU-s instead of 519
 *  (2 cores, one run each, 2026-12-06), the screenshots among the cheapest gains (7.8 → 6.6 CPU-s). */
export const TEST_FLAGS = [...FLAGS, '--disable-gpu'];
/** The figures in page order: the article's figure slots in content/skeleton.ts (tests/unit/content.test.ts
 *  keeps them equal to the registry, web/src/figures/registry.ts), so a new figure is shot and exported too. */
const SKELETON = readFileSync(join(root, 'web/src/content/skeleton.ts'), 'utf8').split('export const SKELETON')[1] ?? '';
export const FIGS = [...SKELETON.matchAll(/'(fig\d+)'/g)].map((m) => m[1]);
if (FIGS.length === 0) throw new Error('harness: no figure slots found in web/src/content/skeleton.ts (SKELETON)');
/** The page's tests of the article's inferences (Figures A, B, …), in page order: the figures whose
 *  FigureDef (figures/figN/index.ts) is of series 'test' (written out, or made by figures/types.ts
 *  testFigure) and draws a slot (not the composer, fig16, which draws its own runs). A new experiment
 *  figure is run too; tests/unit/registry.test.ts keeps this list equal to the registry's. */
export const TEST_FIGS = FIGS.filter((id) => {
  const src = readFileSync(join(root, `web/src/figures/${id}/index.ts`), 'utf8');
  return (/series: 'test'/.test(src) || /\btestFigure\s*[<(]/.test(src)) && !/slot: null/.test(src);
});

/** How the end-to-end loop over TEST_FIGS shrinks the quick settings that take a minute or more in
 *  the browser (tests/e2e/run.mjs says why): per figure, form fields and their values; `tooSmall`:
 *  the shrunk setting cannot show the effect, and the caption must say so. What those quick settings
 *  give is checked on the native engine instead (tests/wasm/quick-verdicts.test.ts reads this table). */
export const E2E_SHRINK = {
  // 20 steps: no run leaves the plateau (warmupLength: untested, too short)
  fig8: { steps: '20', tooSmall: true },
  // one cell: Pre-LN, 2 layers, lr 0.01, no warm-up
  fig15: { placements: ['pre'], depths: '2', lrs: '0.01', warmups: '0' },
  // claims 10 and 9 (about a minute each at their quick settings): 20 steps, where Pre-LN, the
  // rules' positive control, cannot leave the plateau yet (deepNormNoWarmup, preWarmup: untested,
  // too short); claim 9's warm-up shrunk with them
  fig13: { steps: '20', tooSmall: true },
  fig14: { steps: '20', warmups: '0, 10', tooSmall: true },
  // sharpness (its quick setting: a Lanczos estimate every 10 of 25 steps, 25 CPU-s of a busy suite's
  // run here against 5 s native): 10 steps, two measured steps and a run shorter than its warm-up
  // (sharpnessWarmup, sharpnessGiAdam: untested, too short), at d = 32 (its Lanczos products in
  // double were still 18.5 CPU-s of a busy suite's run at d = 64; natively 3.9 → 1.7 s)
  fig12: { steps: '10', d: '32', tooSmall: true },
  // real text (its quick setting: 8 runs of 200 steps, 20–45 s here): 20 steps, where Pre-LN, the
  // rule's positive control, cannot leave the plateau yet (realText: untested, too short)
  fig19: { steps: '20', tooSmall: true },
  // angular-update (its quick setting: 12 runs of 100 steps, about 20 s native): 10 steps, fewer
  // than the rule's 2/(1 − β1) = 20 (angularUpdate: untested, too short)
  fig20: { steps: '10', tooSmall: true },
};

// ---- servers -----------------------------------------------------------------------------------
export function freePort() {
  return new Promise((res, rej) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
    s.on('error', rej);
  });
}

export const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.png': 'image/png',
};

/**
 * A plain static server over `dir` (default dist/) with no COOP/COEP headers, like any static
 * host. `transform(path, buffer)` may rewrite a file (the embed host page fills in its site URL).
 */
export function staticServer(port, { dir = dist, transform } = {}) {
  const server = createServer((req, res) => {
    let p = '/';
    try {
      p = decodeURIComponent((req.url ?? '/').split('?')[0]);
    } catch {
      res.writeHead(400);
      return res.end('bad request');
    }
    if (p.endsWith('/')) p += 'index.html';
    const candidates = [join(dir, normalize(p))];
    if (fixtures && /^\/(data|wasm)\//.test(p)) candidates.push(join(fixtures, normalize(p)));
    const file = candidates.find((f) => (f.startsWith(dir) || (fixtures && f.startsWith(fixtures)) ? existsSync(f) && statSync(f).isFile() : false));
    if (!file) {
      res.writeHead(404);
      return res.end('not found');
    }
    let body = readFileSync(file);
    if (transform) body = transform(p, body);
    res.writeHead(200, { 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
    res.end(body);
  });
  return new Promise((r) => server.listen(port, '127.0.0.1', () => r(server)));
}

/**
 * `python3 -m http.server` over `dir`: the plain static host the docs name (no COOP/COEP, so the
 * page is not cross-origin isolated and uses the single-threaded engine). Null when python3 is
 * missing; `close()` stops it.
 */
export async function pythonServer(port, dir = dist) {
  const child = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', dir], { stdio: 'ignore' });
  const failed = new Promise((r) => child.on('error', () => r(true)));
  for (let i = 0; i < 100; i++) {
    if (await Promise.race([failed, new Promise((r) => setTimeout(() => r(false), 100))])) return null;
    try {
      const r = await fetch(`http://127.0.0.1:${port}/`);
      if (r.ok) return { close: () => child.kill(), kind: 'python3 -m http.server' };
    } catch {
      // not up yet
    }
  }
  child.kill();
  return null;
}

/** `vite preview` of dist/ (or of another built folder, `outDir`) on `port`, as npm start serves it
 *  (COOP/COEP); resolves once it answers. */
export async function vitePreview(port, outDir = null) {
  const child = spawn(
    process.execPath,
    [
      join(root, 'node_modules/vite/bin/vite.js'),
      'preview',
      '--port',
      String(port),
      '--strictPort',
      '--host',
      '127.0.0.1',
      ...(outDir ? ['--outDir', resolve(outDir)] : []),
    ],
    {
      cwd: root,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(url);
      if (r.ok) return { child, url };
    } catch {
      // not up yet
    }
    if (child.exitCode != null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error(`vite preview did not start:\n${log}`);
}

// ---- test harness ------------------------------------------------------------------------------
/** CPU-seconds spent so far by this process and every process below it (the browsers and their
 *  renderers, the servers): user + system time of the live ones and of the children each has
 *  reaped (Linux /proc; 0 elsewhere). A check's difference says what it cost the machine, which the
 *  seconds do not when two lanes share the cores. */
export function treeCpuSeconds() {
  let stats;
  try {
    stats = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map((pid) => {
        try {
          const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
          const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
          // fields 4 (ppid), 14–17 (utime, stime, cutime, cstime) of proc(5), here from field 3 on
          return { pid: Number(pid), ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
        } catch {
          return null;
        }
      })
      .filter(Boolean);
  } catch {
    return 0;
  }
  const children = new Map();
  for (const p of stats) {
    if (!children.has(p.ppid)) children.set(p.ppid, []);
    children.get(p.ppid).push(p);
  }
  let ticks = 0;
  const walk = (pid) => {
    for (const c of children.get(pid) ?? []) {
      ticks += c.ticks;
      walk(c.pid);
    }
  };
  ticks += stats.find((p) => p.pid === process.pid)?.ticks ?? 0;
  walk(process.pid);
  return ticks / 100; // USER_HZ
}

/** A list of named checks; each runs once, is timed and recorded; failures do not stop the run.
 *  Runs the checks whose name contains `only` (E2E_ONLY; several substrings separated by `||`,
 *  e.g. 'page loads (en)||Figure 4: a preset', so a check can run after the one that waits for the page).
 *  A runner may be cut in two parts (`part('late')` before the first check of the second, whose checks
 *  each open pages of their own): with E2E_PART=early only the checks before it run, with
 *  E2E_PART=late only those after; unset, all run.
 *  `share` (E2E_SHARE, a directory): two runners of one file share the late part, each check run by
 *  the first runner to reach it, which claims it by creating a file named after it there (`wx`, so
 *  one of two that try at once wins). npm test runs the whole file in its main lane and the late part
 *  in its side lane: both take the late checks in order until none is left, so neither lane waits
 *  for the other's share of fixed size. */
export function makeChecker(only = process.env.E2E_ONLY ?? '', onlyPart = process.env.E2E_PART ?? '', share = process.env.E2E_SHARE ?? '') {
  const results = [];
  const wanted = only.split('||').filter(Boolean);
  let current = 'early';
  const part = (name) => void (current = name);
  /** true when this runner may run the check: no share, or it claimed the check first */
  const claim = (name) => {
    if (!share || current !== 'late') return true;
    try {
      closeSync(openSync(join(share, createHash('sha1').update(name).digest('hex').slice(0, 20)), 'wx'));
      return true;
    } catch (e) {
      if (e.code === 'EEXIST') return false;
      throw e;
    }
  };
  async function check(name, fn) {
    if (onlyPart && onlyPart !== current) return;
    if (wanted.length && !wanted.some((w) => name.includes(w))) return;
    if (!claim(name)) return void console.log(`  --    ${name} (run by the other runner)`);
    const t0 = Date.now();
    const c0 = treeCpuSeconds();
    try {
      await fn();
      const cpu = treeCpuSeconds() - c0;
      results.push({ name, ok: true, ms: Date.now() - t0, cpu });
      console.log(`  ok    ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s, ${cpu.toFixed(1)} CPU-s)`);
    } catch (e) {
      results.push({ name, ok: false, error: e, ms: Date.now() - t0 });
      console.log(`  FAIL  ${name}: ${(e && e.message) || e}`);
    }
  }
  return { check, part, results };
}

export function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

/** Race `p` against a timeout (a hang becomes a failure with `what` in the message). */
export function withTimeout(p, ms, what) {
  let t;
  return Promise.race([p, new Promise((_, rej) => (t = setTimeout(() => rej(new Error(`timed out after ${ms} ms: ${what}`)), ms)))]).finally(() =>
    clearTimeout(t),
  );
}

/** Context options that keep the site's service worker out. A fresh context installs it on its
 *  first load, and once the page is idle fetches and caches the whole site (public/sw.js): about 0.7 s of
 *  Chromium's CPU per fresh page on 2 cores (3.9 against 4.6 s to every figure ready), in a check
 *  that is not about it. The checks that are (offline, the plain server's isolation, embeds the
 *  worker serves, the page's requests) keep it. */
export const NO_SERVICE_WORKER = { serviceWorkers: 'block' };

/** The speed record of a returning reader (lib/calibrate.ts): the speed this page's calibration
 *  measured on this kind of machine (2 cores, wasm-mt-fma, 2026-12-05), kept under an engine name no
 *  page runs. The page then does not calibrate when Figure 4 nears the viewport (RunControls'
 *  calibration at idle: 2–5 CPU-seconds of the engine's worker, which every fresh test page otherwise
 *  spends beside its check), its estimates read this record (of the order of this machine's), and a
 *  link that asks for a run still measures the engine that would run it. The check of the first
 *  visit's calibration opens its page with `firstVisit`. */
export const SPEED_RECORD = {
  name: 'lnx.speed.v2',
  value: JSON.stringify({
    engine: 'another-machine/wasm-mt-fma/2',
    points: [
      [2048, 3.4e7, 1],
      [8192, 2.6e7, 1],
      [65536, 6.6e7, 1],
    ],
    startMs: 25,
  }),
};

/** Gives `context` the returning reader's speed record for `url`'s origin: written before the
 *  page's own scripts in each of that origin's documents where the origin holds none (a record the
 *  page writes stays; other origins, a host page's, are left alone). An init script, not Playwright's
 *  storageState, which opens a page of its own in every new context to write it: 0.8 CPU-s of
 *  Chromium's per context (3.34 against 2.50, the medians of 5 fresh contexts each loading the article
 *  for 2.5 s, 2 cores, 2026-12-07). */
export function seedSpeed(context, url) {
  return context.addInitScript(
    ([origin, { name, value }]) => {
      try {
        if (location.origin === origin && localStorage.getItem(name) == null) localStorage.setItem(name, value);
      } catch {
        /* a document without storage (about:blank, an opaque origin) */
      }
    },
    [new URL(url).origin, SPEED_RECORD],
  );
}

/** A page in a fresh context (the speed measured elsewhere: `seedSpeed`, unless `firstVisit`
 *  or contextOptions.storageState), with its console errors, warnings and dialogs collected.
 *  The site's service worker is kept out (`NO_SERVICE_WORKER`) unless `serviceWorker`: the checks
 *  that are about it (offline, the plain server's isolation, embeds it serves) ask for it. `init`
 *  runs in every document before its own scripts. */
export async function openPage(
  browser,
  url,
  { width = 1280, height = 900, lang = 'en', theme = 'light', query, contextOptions = {}, firstVisit = false, serviceWorker = false, init } = {},
) {
  // (a check may pass the whole address as `query`, a copied link, with `url` empty)
  const address = `${url}${query ?? `?lang=${lang}&theme=${theme}`}`;
  const context = await browser.newContext({
    viewport: { width, height },
    deviceScaleFactor: 1,
    locale: lang === 'zh' ? 'zh-CN' : 'en-US',
    acceptDownloads: true,
    ...(serviceWorker ? {} : NO_SERVICE_WORKER),
    ...contextOptions,
  });
  // a storage state of the check's own replaces the record
  if (!firstVisit && !contextOptions.storageState) await seedSpeed(context, address);
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const errors = [];
  const warnings = [];
  const dialogs = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
    if (m.type() === 'warning') warnings.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  await page.goto(address, { waitUntil: 'load' });
  return { page, context, errors, warnings, dialogs };
}

/** Where the page's switches are (lib/headroom.ts): 'in' their slot in the masthead, or floating at
 *  the top of the window, 'hidden' out of it or 'shown'. */
export const switchesAt = (page) => page.$eval('[data-island="toolbar"]', (el) => el.dataset.float ?? 'in').catch(() => 'in');

/** Press one of the page's switches (`selector`: the language link, the theme button) as a reader
 *  does wherever they are: past the masthead the switches float at the top of the window, out of it
 *  while the reader reads on down, and come back when the reader scrolls up (lib/headroom.ts), so
 *  where they are out of the window a scroll up comes first. */
export async function pressSwitch(page, selector) {
  if ((await switchesAt(page)) === 'hidden') {
    const vp = page.viewportSize() ?? { width: 800, height: 600 };
    await page.mouse.move(vp.width / 2, vp.height / 2);
    await page.mouse.wheel(0, -120);
    await page.waitForFunction(() => document.querySelector('[data-island="toolbar"]')?.dataset.float !== 'hidden', null, { timeout: 10000 });
  }
  await page.click(selector);
}

/** Wait until element #id's attribute `attr` is one of `values`; returns the value reached.
 *  Polls on a timer and hands back a string, not an element handle: on a loaded 2-core machine
 *  `waitForSelector` was seen to time out after logging "locator resolved to visible" (its rAF
 *  polling and handle adoption both wait on a busy renderer; playwright issue #20772). */
export async function waitAttr(page, id, attr, values, timeout) {
  try {
    const h = await page.waitForFunction(
      ([id, attr, values]) => {
        const v = document.getElementById(id)?.getAttribute(attr);
        return values.includes(v) ? v : null;
      },
      [id, attr, values],
      { timeout, polling: 200 },
    );
    return await h.jsonValue();
  } catch (e) {
    // the attribute's value now, and why the wait ended (a timeout, or a closed page)
    const now = await page.$eval(`#${id}`, (el, a) => el.getAttribute(a), attr).catch(() => 'absent');
    throw new Error(`#${id} did not reach ${attr}=${values.join('|')} within ${timeout} ms (now: ${now}; ${String(e?.message ?? e).split('\n')[0]})`);
  }
}

/** Wait until every figure of `figs` is live and ready (data-state=ready), then every other part
 *  of the page that becomes live on its own (the citation, web/src/lib/islands.ts). A part becomes
 *  live when it nears the viewport, as a reader scrolling through it would make it: one not live
 *  yet is scrolled to while it is waited for (again after a reload: the page may reload itself
 *  once on a static host, lib/isolation.ts). The page stays where the last one is. `{ rest: false }`:
 *  the figures of `figs` only, the other parts stay as the page left them. */
export async function waitReady(page, timeout = 30000, figs = FIGS, { rest = true } = {}) {
  for (const id of figs) {
    try {
      await page.waitForFunction(
        (id) => {
          const el = document.getElementById(id);
          if (el?.dataset.state === 'ready') return true;
          const island = el?.closest('[data-island]');
          if (island && !('live' in island.dataset)) el.scrollIntoView({ block: 'center' });
          return false;
        },
        id,
        { timeout, polling: 200 },
      );
    } catch (e) {
      const now = await page.$eval(`#${id}`, (el) => el.getAttribute('data-state')).catch(() => 'absent');
      throw new Error(`#${id} did not reach data-state=ready within ${timeout} ms (now: ${now}; ${String(e?.message ?? e).split('\n')[0]})`);
    }
  }
  if (!rest) return;
  await page.waitForFunction(
    () => {
      const rest = document.querySelector('[data-island]:not([data-live])');
      rest?.firstElementChild?.scrollIntoView({ block: 'center' });
      return !rest;
    },
    null,
    { timeout, polling: 200 },
  );
}

export const readout = (page, id) => page.$eval(`#${id} .readout`, (el) => el.textContent.trim());

/** Open a figure's settings <details>, and wait for its fields (built when it is first opened:
 *  components/common/RunControls.svelte). */
export async function openSettings(page, id) {
  await page.$eval(`#${id} .run details`, (d) => (d.open = true));
  await page.waitForFunction((id) => document.querySelector(`#${id} .run .settings`)?.childElementCount > 0, id, { timeout: 10000, polling: 50 });
}

/** Scroll `selector` into view and wait until it stays there from one frame to the next. The
 *  blocks around it are `content-visibility: auto` (web/src/styles/app.css) and take their real
 *  height only as they near the viewport, so a click aimed right after a scroll can land on what
 *  moved under it: a fresh clone's run once had Figure 7's quick-setting box clicked while the
 *  section above it was laid out ("<section id=adam> intercepts pointer events"), and the box stayed
 *  unchecked. Gives up quietly after `timeout` ms (the click then reports what it meets). */
export async function settleInView(page, selector, timeout = 5000) {
  // its top after two frames; a page without JavaScript runs no frame callbacks, so after 100 ms the
  // top as it is then
  const top = async () =>
    (await Promise.race([
      page.$eval(selector, (el) => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(el.getBoundingClientRect().top))))),
      new Promise((r) => setTimeout(() => r(null), 100)),
    ])) ?? page.$eval(selector, (el) => el.getBoundingClientRect().top);
  // (stable is not enough: the blocks above it can take their sizes after the scroll and leave it
  // still, but out of view, as below Figure 4's test aside at phone width: then it is scrolled to again)
  const inView = (y) => y >= 0 && y < (page.viewportSize()?.height ?? Infinity);
  await page.$eval(selector, (el) => el.scrollIntoView({ block: 'center' }));
  const until = Date.now() + timeout;
  for (let last = await top(); Date.now() < until; ) {
    const now = await top();
    if (Math.abs(now - last) < 0.5 && inView(now)) return;
    await page.$eval(selector, (el) => el.scrollIntoView({ block: 'center' }));
    last = await top();
  }
}

/** The page's blocks away from the viewport are `content-visibility: auto` (web/src/styles/app.css):
 *  they paint nothing until they near it, so a picture of more than the viewport is taken with that
 *  switched off for the moment (as print does), after the layout it brings. */
async function allVisible(page) {
  const style = await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return () => style.evaluate((s) => s.remove());
}

/** The share of a PNG's pixels (8-bit RGB or RGBA, as Chromium writes them) that differ from its
 *  first pixel by more than 8 in a channel: near 0 for a picture of blank page. */
export function inkShare(png) {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const [depth, type] = [png[24], png[25]];
  if (depth !== 8 || (type !== 2 && type !== 6)) return 1; // not a kind Chromium writes: no opinion
  const idat = [];
  for (let o = 8; o < png.length; ) {
    const len = png.readUInt32BE(o);
    if (png.toString('latin1', o + 4, o + 8) === 'IDAT') idat.push(png.subarray(o + 8, o + 8 + len));
    o += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const bpp = type === 6 ? 4 : 3;
  const stride = width * bpp;
  let prev = new Uint8Array(stride);
  let ink = 0;
  let first = null;
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? cur[i - bpp] : 0;
      const b = prev[i];
      const c = i >= bpp ? prev[i - bpp] : 0;
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      const pred = filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : filter === 4 ? (pa <= pb && pa <= pc ? a : pb <= pc ? b : c) : 0;
      cur[i] = (line[i] + pred) & 255;
    }
    first ??= cur.slice(0, 3);
    for (let x = 0; x < stride; x += bpp)
      if (Math.abs(cur[x] - first[0]) > 8 || Math.abs(cur[x + 1] - first[1]) > 8 || Math.abs(cur[x + 2] - first[2]) > 8) ink++;
    prev = cur;
  }
  return ink / (width * height);
}

/** A picture of `selector` in test-artifacts/NAME.png; without one, of the page's first screen (what
 *  a reader sees on arrival). The whole page is not taken: at 1280 × 48,000 px (390 × 73,000 at
 *  phone width) it cost 6.5 CPU-seconds a picture, and no viewer shows it legibly; each figure has
 *  its own picture, and print its PDF. */
export async function shoot(page, name, selector) {
  const path = join(artifacts, `${name}.png`);
  if (!selector) {
    await page.evaluate(() => scrollTo(0, 0));
    return void (await page.screenshot({ path, animations: 'disabled' }));
  }
  // The element is taken inside the viewport, brought into view and left to stay put first. The
  // blocks around it are content-visibility: auto and take their real heights as they near the
  // viewport; a picture of an element taller than the viewport is taken by rendering the page
  // beyond it, which lays those blocks out while the picture is clipped where the element was
  // before: 22 of a fresh clone's pictures were blank page (Figures 9, 13–16 at 1280 × 900, and
  // Figure 4 with a run streaming, 1420 px tall). So the viewport grows to fit the element first.
  const el = await page.$(selector);
  const viewport = page.viewportSize();
  const height = await el.evaluate((e) => e.getBoundingClientRect().height);
  const grow = viewport && height > viewport.height - 20;
  if (grow) await page.setViewportSize({ width: viewport.width, height: Math.ceil(height) + 40 });
  try {
    await settleInView(page, selector, 3000);
    await el.screenshot({ path, animations: 'disabled', timeout: 15000 });
  } catch {
    // a busy 2-core machine can starve the "element is stable" wait: clip the page instead, every
    // block painted (allVisible), the element scrolled into view first
    await el.evaluate((e) => e.scrollIntoView({ block: 'start' }));
    const restore = await allVisible(page);
    const clip = await el.evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height };
    });
    await page.screenshot({ path, fullPage: true, clip, animations: 'disabled' });
    await restore();
  } finally {
    if (grow) await page.setViewportSize(viewport);
  }
  // a picture of blank page fails the check that took it (what it shows is what a reader sees):
  // decoded only when it compresses as blank page does (real figures: 0.04–0.1 bytes a pixel;
  // blank ones 0.003–0.006, with under 0.3% of their pixels inked)
  const png = readFileSync(path);
  const ink = png.length / (png.readUInt32BE(16) * png.readUInt32BE(20)) < 0.03 ? inkShare(png) : 1;
  if (ink < 0.01) throw new Error(`the picture ${name}.png of ${selector} is blank page (${(ink * 100).toFixed(2)}% of its pixels differ from its corner)`);
}

export function summary(results) {
  const passed = results.filter((r) => r.ok).length;
  return { passed, failed: results.length - passed };
}

/** Click `selector` once it stays put in view: the sections around it take their sizes as a scroll
 *  brings them near (content-visibility), and a click while they do can land beside it. */
export async function clickSettled(page, selector) {
  await settleInView(page, selector);
  await page.click(selector);
}

/** Press figure `id`'s Recompute as a reader would: through the speed measurement of a first visit,
 *  and a run estimated over 3 minutes asks first (RunControls' "Start it?"): say yes, as a reader who
 *  pressed it meant to. */
export async function pressRecompute(page, id) {
  const runOf = () => page.$eval(`#${id}`, (f) => f.dataset.run ?? '').catch(() => '');
  const before = await runOf();
  await clickSettled(page, `#${id} button.recompute`);
  await page.waitForTimeout(30);
  // pressed before any speed was known: the page measures it first (a few seconds)
  await page.waitForFunction((fig) => !document.querySelector(`#${fig} [data-measuring]`), id, { timeout: 60000 });
  // a run estimated past the page's limit asks first: answered yes. A busy renderer may show the
  // question a moment after the press: watched for a second, until the run starts or moves on
  for (let i = 0; i < 20; i++) {
    const yes = await page.$(`#${id} [data-ask] .ask-yes`);
    if (yes) return yes.click();
    const now = await runOf();
    if (now === 'running' || now !== before) return;
    await page.waitForTimeout(50);
  }
}

const AXE = readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
/** axe-core's violations on the page as it is now (WCAG 2.x A and AA, axe's best practices, and
 *  WCAG 2.2's 24 × 24 px target size): "rule: target" lines, empty when there are none. */
export async function axeViolations(page, within = null) {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ content: AXE });
  return page.evaluate(
    async (within) =>
      (await globalThis.axe.run(within ?? document, { resultTypes: ['violations'], rules: { 'target-size': { enabled: true } } })).violations.flatMap((v) =>
        v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`),
      ),
    within,
  );
}
