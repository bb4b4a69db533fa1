#!/usr/bin/env node
// lighthouse_bench.mjs — Lighthouse's Performance category for the built page, for scripts/bench.mjs
// (section "lighthouse"). Lighthouse 12.2.3 (package.json), its default mobile preset: a Moto G
// Power's screen (412 × 823, DPR 1.75, touch), simulated throttling (Lantern: a slow 4G link,
// 150 ms RTT and 1.6 Mbit/s down, and the CPU 4× slower, applied to a trace of an unthrottled
// load), the page served by `vite preview` (localhost, COOP/COEP, as `npm start` serves it). The
// system's Chromium (CHROME_PATH, else $CHROMIUM, else /usr/bin/chromium; nothing is downloaded),
// one instance for every run. Per language (dist/ English, dist/zh/ Chinese), RUNS runs (default 3),
// the median by score: the score and its metrics (first and largest contentful paint, speed index,
// total blocking time, cumulative layout shift, time to interactive), the longest main-thread task
// Lighthouse saw, and its settings. Target (issue 31): Performance ≥ 95. Prints one JSON line.
// Needs a built dist/ (npx vite build). The accessibility, best-practices and SEO categories are
// asserted in npm test instead (tests/audits/lighthouse.mjs).
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { dist, freePort, vitePreview } from '../tests/e2e/harness.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const COPIES = [
  ['en', ''],
  ['zh', 'zh/'],
];
const METRICS = {
  fcp_ms: 'first-contentful-paint',
  lcp_ms: 'largest-contentful-paint',
  speed_index_ms: 'speed-index',
  tbt_ms: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  tti_ms: 'interactive',
  max_potential_fid_ms: 'max-potential-fid',
};
const chromePath = process.env.CHROME_PATH ?? process.env.CHROMIUM ?? '/usr/bin/chromium';

if (!existsSync(join(dist, 'index.html'))) {
  console.error('lighthouse_bench: dist/index.html is missing: run `npx vite build` first');
  process.exit(2);
}
const out = {
  measured: new Date().toISOString(),
  lighthouse: null,
  runs: RUNS,
  load_before: loadavg()[0],
  cores: cpus().length,
  settings: null,
  languages: {},
};
const preview = await vitePreview(await freePort());
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  for (const [lang, path] of COPIES) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      // a load Lighthouse could not record (NO_NAVSTART, NO_FCP on a busy machine) is run again, twice at most
      let lhr;
      for (let attempt = 0; attempt < 3; attempt++) {
        ({ lhr } = await lighthouse(`${preview.url}${path}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] }));
        if (!lhr.runtimeError) break;
        process.stderr.write(`lighthouse_bench: ${lang}: ${lhr.runtimeError.code}, again\n`);
      }
      if (lhr.runtimeError) throw new Error(`${lang}: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
      out.lighthouse ??= lhr.lighthouseVersion;
      const s = lhr.configSettings;
      out.settings ??= {
        form_factor: s.formFactor,
        screen: `${s.screenEmulation.width} × ${s.screenEmulation.height}, DPR ${s.screenEmulation.deviceScaleFactor}`,
        throttling_method: s.throttlingMethod,
        rtt_ms: s.throttling.rttMs,
        throughput_kbps: s.throttling.throughputKbps,
        cpu_slowdown: s.throttling.cpuSlowdownMultiplier,
        benchmark_index: lhr.environment?.benchmarkIndex ?? null,
      };
      const tasks = lhr.audits['long-tasks']?.details?.items ?? [];
      runs.push({
        score: Math.round((lhr.categories.performance.score ?? 0) * 100),
        ...Object.fromEntries(
          Object.entries(METRICS).map(([k, id]) => [k, k === 'cls' ? lhr.audits[id]?.numericValue : Math.round(lhr.audits[id]?.numericValue ?? NaN)]),
        ),
        longest_task_ms: Math.round(Math.max(0, ...tasks.map((t) => t.duration))),
        long_tasks: tasks.length,
        benchmark_index: lhr.environment?.benchmarkIndex ?? null,
      });
      process.stderr.write(`lighthouse_bench: ${lang} run ${i + 1}: Performance ${runs.at(-1).score}\n`);
    }
    const median = [...runs].sort((a, b) => a.score - b.score)[Math.floor(runs.length / 2)];
    out.languages[lang] = { ...median, scores: runs.map((r) => r.score), runs };
  }
} finally {
  out.load_after = loadavg()[0];
  await chrome.kill();
  preview.child.kill();
}
console.log(JSON.stringify(out));
