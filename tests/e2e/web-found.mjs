#!/usr/bin/env node
// tests/e2e/web-found.mjs — end-to-end checks of what a link to the page unfolds into elsewhere
// (web/src/prerender/web-found.ts; docs/sharing.md, "Found on the web" and "Pasting a link into a
// blog"), in headless Chromium (playwright-core, the system's /usr/bin/chromium; nothing is
// downloaded). Expects dist/ to be built (npx vite build); builds nothing itself. Serves dist/ with
// a plain static server and, on another port (another origin), a blog post made of a figure's
// oEmbed HTML, as a host that found it would insert it.
// Covers: each copy's card picture (a 1200 × 630 PNG named by og:image and twitter:image); each
// figure's page in each language names its oEmbed document (the discovery link), and the document
// is oEmbed 1.0 "rich" with the figure's iframe; that iframe draws the figure (data-state=ready) on
// another origin, within the height the document gives; a reader who opens a figure's page lands
// on the figure in the article. Prints `N passed, M failed` last; exits non-zero on a failure.
// E2E_ONLY=substring runs only matching checks.
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, FIGS, TEST_FLAGS, assert, dist, freePort, makeChecker, staticServer, summary, waitAttr } from './harness.mjs';

if (!existsSync(join(dist, 'index.html'))) {
  console.error('web-found: dist/index.html is missing: run `npx vite build` first');
  process.exit(2);
}
const COPIES = { en: '', zh: 'zh/' };
const t0 = Date.now();
const pSite = await freePort();
const site = await staticServer(pSite);
const base = `http://127.0.0.1:${pSite}/`;
/** The blog post a host writes around an oEmbed document's html (set per check). */
let post = '';
const pHost = await freePort();
const host = createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(post);
});
await new Promise((r) => host.listen(pHost, '127.0.0.1', r));
const browser = await chromium.launch({ executablePath: CHROMIUM, args: TEST_FLAGS });
const { check, results } = makeChecker();

const get = async (url) => {
  const r = await fetch(url);
  assert(r.ok, `${url}: HTTP ${r.status}`);
  return r;
};
const attrOf = (html, re) => html.match(re)?.[1]?.replace(/&amp;/g, '&');
/** The oEmbed document of figure `id` in `lang`, found as a host finds it: from the figure's page. */
async function discover(lang, id) {
  const pageUrl = new URL(`${COPIES[lang]}f/${id}/`, base).href;
  const html = await (await get(pageUrl)).text();
  const link = html.match(/<link rel="alternate" type="application\/json\+oembed" href="([^"]+)" title="([^"]*)"/);
  assert(link, `${pageUrl}: no oEmbed discovery link`);
  const docUrl = new URL(link[1].replace(/&amp;/g, '&'), pageUrl).href;
  const r = await get(docUrl);
  assert(/json/.test(r.headers.get('content-type') ?? ''), `${docUrl}: served as ${r.headers.get('content-type')}`);
  return { pageUrl, html, docUrl, doc: await r.json() };
}
/** The document's html with its addresses made absolute against the document (they are absolute
 *  already in a build with LNX_SITE_URL). */
const absolute = (html, docUrl) =>
  html.replace(/(src)="([^"]+)"/g, (_, a, v) => `${a}="${new URL(v.replace(/&amp;/g, '&'), docUrl).href.replace(/&/g, '&amp;')}"`);

try {
  for (const [lang, copy] of Object.entries(COPIES)) {
    await check(`the ${lang} copy's card picture is a 1200 x 630 PNG`, async () => {
      const url = new URL(copy, base).href;
      const html = await (await get(url)).text();
      const img = attrOf(html, /<meta property="og:image" content="([^"]+)"/);
      assert(img, `${url}: no og:image`);
      assert(attrOf(html, /<meta name="twitter:image" content="([^"]+)"/) === img, `${url}: twitter:image is not og:image`);
      assert(/<meta name="twitter:card" content="summary_large_image"/.test(html), `${url}: twitter:card is not summary_large_image`);
      assert(attrOf(html, /<meta property="og:image:alt" content="([^"]+)"/)?.length > 10, `${url}: no og:image:alt`);
      assert(attrOf(html, /<meta property="og:image:width" content="([^"]+)"/) === '1200', `${url}: og:image:width`);
      assert(attrOf(html, /<meta property="og:image:height" content="([^"]+)"/) === '630', `${url}: og:image:height`);
      const png = Buffer.from(await (await get(new URL(img, url).href)).arrayBuffer());
      assert(png.subarray(1, 4).toString() === 'PNG', `${img}: not a PNG`);
      const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
      assert(w === 1200 && h === 630, `${img}: ${w} x ${h}`);
      assert(png.length > 20000, `${img}: ${png.length} bytes (an empty picture?)`);
    });
  }

  const docs = {};
  await check('every figure page names its oEmbed document (oEmbed 1.0, rich, the figure’s iframe), in both languages', async () => {
    for (const lang of Object.keys(COPIES))
      for (const id of FIGS) {
        const found = (docs[`${lang}|${id}`] = await discover(lang, id));
        const { doc, html, pageUrl } = found;
        assert(doc.version === '1.0' && doc.type === 'rich', `${pageUrl}: version ${doc.version}, type ${doc.type}`);
        assert(
          doc.provider_name && doc.title && Number.isInteger(doc.width) && Number.isInteger(doc.height),
          `${pageUrl}: ${JSON.stringify(doc).slice(0, 200)}`,
        );
        const src = attrOf(doc.html, /<iframe src="([^"]+)"/);
        assert(src && new URLSearchParams(src.split('?')[1]).get('embed') === id && src.includes(`lang=${lang}`), `${pageUrl}: iframe src ${src}`);
        assert(doc.html.includes(`height="${doc.height}"`) && doc.html.includes('data-lnx-embed'), `${pageUrl}: html ${doc.html}`);
        assert(html.includes(`<html lang="${lang === 'zh' ? 'zh-CN' : 'en'}"`), `${pageUrl}: lang`);
        assert(/<meta property="og:image" content="[^"]+"/.test(html) && html.includes(`<meta property="og:title"`), `${pageUrl}: no cards`);
      }
  });

  for (const [lang, id] of [
    ['en', 'fig4'],
    ['zh', 'fig2'],
  ])
    await check(`a reader who opens ${lang}'s f/${id}/ lands on ${id} in the ${lang} article`, async () => {
      const ctx = await browser.newContext({ locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
      const page = await ctx.newPage();
      await page.goto(new URL(`${COPIES[lang]}f/${id}/`, base).href, { waitUntil: 'load' });
      await page.waitForURL((u) => u.hash === `#${id}`, { timeout: 15000 });
      const u = new URL(page.url());
      assert(u.pathname === `/${COPIES[lang]}` && u.searchParams.get('lang') === lang, `landed on ${page.url()}`);
      await waitAttr(page, id, 'data-state', ['ready'], 60000);
      await ctx.close();
    });

  // every figure's iframe, as a host inserts it (another origin, a 640 px column): it draws, and
  // the height the document gives covers it (a host that strips the resizer keeps that height)
  const measured = [];
  for (const [lang, ids] of [
    ['en', FIGS],
    ['zh', ['fig3', 'fig4']],
  ])
    await check(`the oEmbed iframe draws each figure on another origin within its height (${lang}: ${ids.join(', ')})`, async () => {
      const ctx = await browser.newContext({ viewport: { width: 720, height: 900 } });
      const page = await ctx.newPage();
      const short = [];
      for (const id of ids) {
        const { doc, docUrl } = docs[`${lang}|${id}`] ?? (await discover(lang, id));
        post = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A blog post</title></head><body style="margin:0">
          <main style="width:640px;margin:0 auto"><p>A post that embeds a figure.</p>${absolute(doc.html, docUrl)}</main>
          <script>window.lnxHeights = []; addEventListener('message', (e) => e.data && e.data.type === 'lnx:height' && lnxHeights.push(e.data));</script></body></html>`;
        await page.goto(`http://127.0.0.1:${pHost}/post-${lang}-${id}.html`, { waitUntil: 'load' });
        const frame = await (await page.waitForSelector('iframe[data-lnx-embed]', { timeout: 15000 })).contentFrame();
        await waitAttr(frame, id, 'data-state', ['ready'], 90000);
        const h = await page.waitForFunction((fig) => window.lnxHeights.filter((m) => m.figure === fig && m.state === 'ready').at(-1)?.height, id, {
          timeout: 15000,
          polling: 200,
        });
        const height = await h.jsonValue();
        measured.push(`${lang} ${id} ${height}/${doc.height}`);
        if (height > doc.height) short.push(`${id}: drawn ${height} px, given ${doc.height} px`);
      }
      await ctx.close();
      assert(!short.length, short.join('; '));
    });
  if (measured.length) console.log(`  heights drawn/given: ${measured.join(', ')}`);
} finally {
  await browser.close();
  site.close();
  host.close();
}
const { passed, failed } = summary(results);
console.log(`web-found: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
