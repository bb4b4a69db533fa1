#!/usr/bin/env node
// calibration_tap_ab.mjs — a tap on Figure 4's Share button on a first visit, when the page has just
// started measuring the device's speed by itself (lib/calibrate.ts: the engine's threads on every
// core for a few seconds), for two builds in one sitting, alternated. Each load: a fresh context at
// phone width under a 4× CPU throttle (as bench/mainthread_bench.mjs), Figure 4 scrolled into view and
// live, then, by mode, the tap
//   soon   after 2 s with no long task (as mainthread_bench.mjs's interactions: the calibration about
//          to start or under way in a build that starts it at once),
//   during 3.5 s after Figure 4 went live (the calibration under way in either build, unless done),
// sent as the touch screen sends it (CDP touch events). Its measure is the interaction's slowest
// Event Timing entry (input to the next paint). Prints each load and the median per build and mode.
//   node bench/calibration_tap_ab.mjs DIST_A DIST_B [REPS=6] [MODES=soon,during]
import { chromium } from 'playwright-core';
import { CHROMIUM, FLAGS, freePort, settleInView, vitePreview } from '../tests/e2e/harness.mjs';
import { observe, quiet, tap } from './interaction.mjs';

const [a, b, reps = '6', modeList = 'soon,during'] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: node bench/calibration_tap_ab.mjs DIST_A DIST_B [REPS] [MODES]');
  process.exit(2);
}
const builds = { A: await vitePreview(await freePort(), a), B: await vitePreview(await freePort(), b) };
const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });

const out = {};
try {
  for (let rep = 0; rep < Number(reps); rep++)
    for (const [name, preview] of Object.entries(builds))
      for (const mode of modeList.split(',')) {
        const ctx = await browser.newContext({ viewport: { width: 390, height: 800 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
        try {
          const page = await ctx.newPage();
          const cdp = await ctx.newCDPSession(page);
          await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
          await page.addInitScript(observe);
          await page.goto(`${preview.url}?lang=en`);
          await page.waitForTimeout(3000);
          await page.$eval('#fig4', (el) => el.scrollIntoView({ block: 'center' }));
          await page.waitForFunction(() => document.getElementById('fig4')?.dataset.state === 'ready', null, { timeout: 60000 });
          await settleInView(page, '#fig4 .share-toggle');
          if (mode === 'during') await page.waitForTimeout(3500);
          else await quiet(page, 2000);
          const calibrated = await page.evaluate(() => localStorage.getItem('lnx.speed.v2') != null);
          const n = await page.evaluate(() => globalThis.__events.length);
          await tap(page, '#fig4 .share-toggle');
          await page.waitForTimeout(1000);
          const ms = Math.round(Math.max(0, ...(await page.evaluate((n) => globalThis.__events.slice(n).map((e) => e.ms), n))));
          (out[`${name} ${mode}`] ??= []).push(ms);
          console.log(`${name} ${mode}: ${ms} ms${calibrated ? ' (the speed was measured already)' : ''}`);
        } finally {
          await ctx.close();
        }
      }
  for (const [k, v] of Object.entries(out)) {
    const s = [...v].sort((x, y) => x - y);
    console.log(`${k}: median ${s[s.length >> 1]} ms of ${v.join(', ')}`);
  }
} finally {
  await browser.close();
  for (const p of Object.values(builds)) p.child.kill();
}
