#!/usr/bin/env node
// mainthread_bench.mjs — does the page answer input right after it paints? For scripts/bench.mjs
// (section "mainthread"). The built page under vite preview (localhost, COOP/COEP) in headless
// Chromium at phone width (390 × 800), the CPU slowed 4× through the DevTools protocol (as
// Lighthouse's mobile preset does; the network is not slowed). Per language, 3 fresh contexts:
// first contentful paint, every main-thread long task (PerformanceObserver 'longtask', ≥ 50 ms)
// from the first paint until 15 s after navigation, the longest of them, and the total blocking
// time over that window (the sum of each long task's time beyond 50 ms; Lighthouse ends its window
// at time to interactive instead). Targets (issue 31): no task after the first paint over 200 ms,
// total blocking time ≤ 200 ms. Prints one JSON line.
import { cpus, loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { CHROMIUM, FLAGS, freePort, vitePreview } from '../tests/e2e/harness.mjs';

const THROTTLE = 4;
const WINDOW_MS = 15000;
const RUNS = Number(process.env.RUNS ?? 3);

const { child: server, url } = await vitePreview(await freePort());
const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });

async function once(path) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 800 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  await page.addInitScript(() => {
    const g = globalThis;
    g.__long = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => g.__long.push([e.startTime, e.duration]))).observe({ type: 'longtask', buffered: true });
    new PerformanceObserver((l) => l.getEntries().forEach((e) => e.name === 'first-contentful-paint' && (g.__fcp = e.startTime))).observe({
      type: 'paint',
      buffered: true,
    });
  });
  await page.goto(`${url}${path}`);
  await page.waitForTimeout(WINDOW_MS);
  const { fcp, long } = await page.evaluate(() => ({ fcp: globalThis.__fcp, long: globalThis.__long }));
  await ctx.close();
  const after = long.filter(([s]) => s >= fcp).map(([s, d]) => ({ at_ms: Math.round(s), ms: Math.round(d) }));
  return {
    fcp_ms: Math.round(fcp),
    longest_ms: Math.max(0, ...after.map((t) => t.ms)),
    tbt_ms: after.reduce((a, t) => a + Math.max(0, t.ms - 50), 0),
    over_200: after.filter((t) => t.ms > 200).length,
    tasks: after,
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = { measured: new Date().toISOString(), throttle: THROTTLE, window_ms: WINDOW_MS, load_before: loadavg()[0], cores: cpus().length, languages: {} };
for (const [lang, path] of [
  ['en', ''],
  ['zh', 'zh/'],
]) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once(path));
  out.languages[lang] = {
    fcp_ms: median(runs.map((r) => r.fcp_ms)),
    longest_ms: median(runs.map((r) => r.longest_ms)),
    tbt_ms: median(runs.map((r) => r.tbt_ms)),
    over_200: median(runs.map((r) => r.over_200)),
    runs,
  };
}
out.load_after = loadavg()[0];
await browser.close();
server.kill();
console.log(JSON.stringify(out));
