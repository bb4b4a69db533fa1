#!/usr/bin/env node
// lighthouse_ab.mjs — two builds of the page under Lighthouse in one sitting, their runs alternated
// (A, B, A, B … per language), so that the machine's load and speed weigh on both alike: sittings
// at different times are not comparable (Lighthouse simulates a phone from a trace of an unthrottled
// load, so a slower or busier machine inflates every task it counts).
//   node bench/lighthouse_ab.mjs DIST_A DIST_B [RUNS=3]
// DIST_A and DIST_B are built dist/ folders (e.g. main's copied aside, then this branch's `npx vite
// build`); each is served by `vite preview` (COOP/COEP, as npm start serves it). Lighthouse 12.2.3's
// mobile preset, as bench/lighthouse_bench.mjs. Prints one line per run and a summary per build and
// language: scores, first contentful paint, total blocking time, bytes of the HTML on the wire,
// Lighthouse's benchmark index (its measure of the machine's speed).
import { loadavg } from 'node:os';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { freePort, vitePreview } from '../tests/e2e/harness.mjs';

const [a, b, runs = '3'] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: node bench/lighthouse_ab.mjs DIST_A DIST_B [RUNS]');
  process.exit(2);
}
// (vite preview of another built folder than dist/: harness.mjs vitePreview)
const builds = { A: await vitePreview(await freePort(), a), B: await vitePreview(await freePort(), b) };
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? process.env.CHROMIUM ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const rows = {};
console.log(`A ${a}, B ${b}; load average ${loadavg()[0].toFixed(2)} at the start`);
try {
  for (let i = 0; i < Number(runs); i++)
    for (const lang of ['en', 'zh'])
      for (const build of ['A', 'B']) {
        const { lhr } = await lighthouse(`${builds[build].url}${lang === 'zh' ? 'zh/' : ''}`, {
          port: chrome.port,
          onlyCategories: ['performance'],
          output: 'json',
          logLevel: 'error',
        });
        const au = lhr.audits;
        const doc = au['network-requests']?.details?.items?.find((r) => r.resourceType === 'Document');
        const row = {
          score: Math.round((lhr.categories.performance.score ?? 0) * 100),
          fcp: Math.round(au['first-contentful-paint'].numericValue),
          tbt: Math.round(au['total-blocking-time'].numericValue),
          html: doc?.transferSize ?? NaN,
          bi: Math.round(lhr.environment?.benchmarkIndex ?? NaN),
        };
        (rows[`${lang} ${build}`] ??= []).push(row);
        console.log(`${lang} ${build}: Performance ${row.score}, FCP ${row.fcp} ms, TBT ${row.tbt} ms, HTML ${row.html} B, benchmark index ${row.bi}`);
      }
} finally {
  await chrome.kill();
  for (const p of Object.values(builds)) p.child.kill();
}
console.log(`load average ${loadavg()[0].toFixed(2)} at the end`);
const med = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
for (const [k, rs] of Object.entries(rows))
  console.log(
    `${k}: Performance ${rs.map((r) => r.score).join(', ')} (median ${med(rs.map((r) => r.score))}); FCP median ${med(rs.map((r) => r.fcp))} ms; TBT median ${med(rs.map((r) => r.tbt))} ms; HTML ${rs[0].html} B`,
  );
process.exit(0);
