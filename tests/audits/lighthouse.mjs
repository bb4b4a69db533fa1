#!/usr/bin/env node
// tests/audits/lighthouse.mjs — the web's own audits of the built page (npm run test:audits):
// Lighthouse's deterministic categories (accessibility, best practices, SEO; performance is
// measured elsewhere: docs/benchmarks.md) for both copies, dist/ (English) and dist/zh/ (Chinese),
// served by `vite preview` as `npm start` serves them. Lighthouse's default mobile preset (a phone's
// width and touch; its throttling is switched off, since no timing is scored here, and so is its
// picture of the whole page, which only the HTML report shows: 10 of 41 CPU-seconds). One Chromium
// (the system's /usr/bin/chromium or $CHROME_PATH; nothing is downloaded), the two copies one after
// the other. Prints each score and exits 1 when any is below 100, naming the failing audits and
// their first items. Needs a built dist/ (npx vite build).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { dist, freePort, vitePreview } from '../e2e/harness.mjs';

const CATEGORIES = ['accessibility', 'best-practices', 'seo'];
const COPIES = [
  ['en', ''],
  ['zh', 'zh/'],
];
const chromePath = process.env.CHROME_PATH ?? process.env.CHROMIUM ?? '/usr/bin/chromium';

if (!existsSync(join(dist, 'index.html'))) {
  console.error('lighthouse: dist/index.html is missing: run `npx vite build` first');
  process.exit(2);
}
const t0 = Date.now();
const preview = await vitePreview(await freePort());
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
let failed = 0;
try {
  for (const [lang, path] of COPIES) {
    const url = `${preview.url}${path}`;
    const t1 = Date.now();
    const { lhr } = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES },
      { extends: 'lighthouse:default', settings: { throttlingMethod: 'provided', locale: 'en-US', disableFullPageScreenshot: true } },
    );
    if (lhr.runtimeError) throw new Error(`${lang}: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const scores = CATEGORIES.map((c) => `${c} ${Math.round((lhr.categories[c]?.score ?? 0) * 100)}`);
    console.log(`  ${lang} ${url}: ${scores.join(', ')} (${((Date.now() - t1) / 1000).toFixed(1)} s)`);
    for (const c of CATEGORIES) {
      for (const ref of lhr.categories[c].auditRefs) {
        const a = lhr.audits[ref.id];
        if (ref.weight === 0 || a.score == null || a.score >= 1) continue;
        failed++;
        console.log(`    FAIL  ${c}: ${a.id} (${a.title})`);
        for (const item of (a.details?.items ?? []).slice(0, 5)) {
          const node = item.node ?? item.subItems?.items?.[0]?.relatedNode;
          const what = node ? `${node.selector ?? ''} ${node.snippet ?? ''}` : JSON.stringify(item).slice(0, 200);
          console.log(`          ${what.slice(0, 240)}${item.node?.explanation ? ` — ${item.node.explanation.split('\n').slice(0, 2).join(' ')}` : ''}`);
        }
      }
    }
  }
} finally {
  await chrome.kill();
  preview.child.kill();
}
console.log(`lighthouse: ${failed ? `${failed} failing audit(s)` : 'every score 100'} in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
process.exit(failed ? 1 : 0);
