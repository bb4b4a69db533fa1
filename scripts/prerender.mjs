#!/usr/bin/env node
// prerender.mjs — writes the article into the built page, once per language. `vite build` runs it
// once the bundle is written (the lnx-prerender plugin in vite.config.ts); by hand, on a fresh
// dist/: node scripts/prerender.mjs. Without it dist/index.html has an empty <div id="app">: a
// reader without JavaScript saw only a <noscript> line, and everyone else saw nothing until the
// script, the article module and the precomputed results had arrived. This renders
// web/src/prerender/StaticPage.svelte with Svelte's own server renderer (through Vite's SSR loader:
// the same compiler and .svelte files as the page) from the precomputed documents in public/data/,
// and puts it inside #app, marked data-prerendered: the English article in dist/index.html, the
// Chinese one in dist/zh/index.html (web/src/prerender/copies.ts says where each goes). Each copy is
// the whole page (the same script, with the site's absolute asset paths) and names the other copies
// (data-copies, and, with LNX_SITE_URL, <link rel="alternate" hreflang>). With JavaScript the copy
// stays the page: its interactive parts ([data-island]: the figures, the toolbar, the citation)
// become live one by one where they are (web/src/page/boot.ts). index.html's first script sends a
// reader to the copy of the language the page is read in, and hides the copy from an embed, before
// anything paints.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ssrLoader } from './registry.mjs';
import { pictureFonts, rasterise } from './og-picture.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Where the site is published (LNX_SITE_URL, e.g. https://example.org/ln-explorable/), for what
 *  must be absolute: the canonical link, the hreflang alternates, the sitemap, the cards' picture and
 *  the oEmbed documents. Unset, no alternates or sitemap are written (robots.txt says nothing of
 *  one), and the picture and the oEmbed addresses are relative (for a look at the build, not for
 *  publishing: a host needs absolute ones). */
const SITE = process.env.LNX_SITE_URL ? new URL(process.env.LNX_SITE_URL.replace(/\/?$/, '/')).href : null;
const OG_LOCALE = { en: 'en_US', zh: 'zh_CN' };
const EMPTY = '<div id="app"></div>';
const attr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** Write every language's article into the built page (dist/index.html, dist/zh/index.html);
 *  throws with a message saying what is missing. Returns the files written. */
export async function prerender({ log = console.log } = {}) {
  const page = join(root, 'dist/index.html');
  if (!existsSync(page)) throw new Error('prerender: dist/index.html is missing: run `vite build` first');
  const html = readFileSync(page, 'utf8');
  if (!html.includes(EMPTY)) throw new Error('prerender: dist/index.html has no empty <div id="app"></div> (already prerendered? run `vite build` again)');

  const t0 = Date.now();
  const vite = await ssrLoader();
  try {
    const m = await vite.ssrLoadModule('/src/prerender/render.ts');
    await m.loadTex();
    const docs = {};
    for (const name of m.SLOT_NAMES) {
      const file = join(root, 'public', m.precomputedPath(name));
      try {
        docs[name] = JSON.parse(readFileSync(file, 'utf8'));
      } catch (e) {
        // a figure without its document is written as the live page shows it then: without data
        log(`prerender: ${file}: ${e instanceof Error ? e.message : e} (its figure is written without data)`);
      }
    }
    // the documents of the figures that have their own (the composer's)
    for (const own of m.OWN_FILES) {
      const file = join(root, 'public', own.path);
      try {
        own.use(JSON.parse(readFileSync(file, 'utf8')));
      } catch (e) {
        log(`prerender: ${file}: ${e instanceof Error ? e.message : e} (its figure is written without data)`);
      }
    }
    const written = [];
    // each copy's picture for the cards (Figure 4 drawn from the precomputed grid, the title in the
    // copy's language), rasterised without a browser
    const pictures = {};
    for (const lang of m.COPY_LANGS) {
      const fonts = pictureFonts(root, lang);
      if (!fonts.covered) log(`prerender: no font for the ${lang} text (install fonts-wqy-microhei): its picture is drawn without it`);
      const file = join(root, 'dist', m.ogPicturePath(lang));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, rasterise(m.ogPictureSvg(lang, docs.grid ?? null, { text: fonts.covered }), fonts.files));
      pictures[lang] = m.ogPicturePath(lang);
    }
    for (const lang of m.COPY_LANGS) {
      // The static copy carries no live state: the tests and the page wait on a live figure's
      // data-state, which must not be answered by the figure as the build drew it.
      const body = m.renderStatic(lang, docs, SITE ? new URL(m.STATIC_COPIES[lang], SITE).href : '').replace(/ data-state="[^"]*"/g, '');
      const others = m.COPY_LANGS.filter((l) => l !== lang);
      const copies = Object.fromEntries(others.map((l) => [l, m.copyHref(lang, l)]));
      // a copy's address: absolute where the site's is known, else relative to this copy
      const hrefOf = (l) => (SITE ? new URL(m.STATIC_COPIES[l], SITE).href : m.copyHref(lang, l));
      // any file of the site from this copy: absolute where the site's address is known
      const up = '../'.repeat(m.STATIC_COPIES[lang].split('/').filter(Boolean).length);
      const fileHref = (path) => (SITE ? new URL(path, SITE).href : up + path);
      // the hreflang alternates only where they can be absolute: a search engine ignores relative
      // ones (and Lighthouse fails them); without the site's address the copies still name each
      // other in data-copies and the static page's language link
      const alternates = SITE
        ? [
            ...m.COPY_LANGS.map((l) => `<link rel="alternate" hreflang="${m.htmlLang(l)}" href="${attr(hrefOf(l))}" />`),
            `<link rel="alternate" hreflang="x-default" href="${attr(hrefOf(m.COPY_LANGS[0]))}" />`,
            `<link rel="canonical" href="${attr(hrefOf(lang))}" />`,
          ]
        : [];
      // the copy's head and no-script note in its own language; a copy away from the front page
      // (zh/) is that language's address: data-lang-by-path makes it count as a choice
      // (index.html's guard, prefs.svelte.ts initialLang)
      const head = m.headText(lang);
      // what a link to the page unfolds into in a chat or a feed (Open Graph, Twitter's card)
      const cards = [
        ['property', 'og:type', 'article'],
        ['property', 'og:title', head.title],
        ['property', 'og:description', head.description],
        ['property', 'og:locale', OG_LOCALE[lang] ?? lang],
        ...m.COPY_LANGS.filter((l) => l !== lang).map((l) => ['property', 'og:locale:alternate', OG_LOCALE[l] ?? l]),
        ...(SITE ? [['property', 'og:url', hrefOf(lang)]] : []),
        ['property', 'og:image', fileHref(pictures[lang])],
        ['property', 'og:image:width', String(m.OG_SIZE.width)],
        ['property', 'og:image:height', String(m.OG_SIZE.height)],
        ['property', 'og:image:alt', m.ogPictureAlt(lang)],
        ['name', 'twitter:card', 'summary_large_image'],
        ['name', 'twitter:title', head.title],
        ['name', 'twitter:description', head.description],
        ['name', 'twitter:image', fileHref(pictures[lang])],
      ]
        .map(([k, n, v]) => `<meta ${k}="${n}" content="${attr(v)}" />`)
        .join('\n    ');
      const byPath = m.STATIC_COPIES[lang] ? ` data-lang-by-path="${lang}"` : '';
      const text = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
      const out = html
        .replace(EMPTY, `<div id="app"><div data-prerendered="${lang}">${body}</div></div>`)
        .replace(/<html lang="[^"]*"/, `<html lang="${m.htmlLang(lang)}"${byPath} data-copies="${attr(JSON.stringify(copies))}"`)
        .replace(/<title>[^<]*<\/title>/, () => `<title>${text(head.title)}</title>`)
        .replace(/<meta name="description" content="[^"]*" \/>/, () => `<meta name="description" content="${attr(head.description)}" />`)
        .replace(/<noscript>[^<]*<\/noscript>/, () => `<noscript>${text(head.noscript)}</noscript>`)
        .replace('</head>', `  ${[...alternates, cards].join('\n    ')}\n  </head>`);
      const file = join(root, 'dist', m.STATIC_COPIES[lang], 'index.html');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, out);
      written.push(file);
      log(`prerender: ${file.slice(root.length + 1)} holds the ${lang} article (${(body.length / 1024).toFixed(0)} KiB of HTML)`);
    }
    // a page per figure and language (f/fig4/, zh/f/fig4/) with the figure's cards and its oEmbed
    // discovery link, and the oEmbed document beside it: what a blog reads of a pasted link
    let figurePages = 0;
    for (const lang of m.COPY_LANGS) {
      for (const id of m.FIGURE_IDS) {
        const paths = m.webFoundPaths(m.STATIC_COPIES[lang], id);
        const depth = paths.page.split('/').filter(Boolean).length;
        const rel = (path) => (SITE ? new URL(path, SITE).href : '../'.repeat(depth) + path || './');
        const dir = join(root, 'dist', paths.page);
        mkdirSync(dir, { recursive: true });
        const page = m.figurePage(lang, id, { rel, articleHref: rel(m.STATIC_COPIES[lang]), htmlLang: m.htmlLang(lang), hasPicture: true });
        writeFileSync(join(dir, 'index.html'), page);
        // beside the page, so the same relative addresses hold for both (absolute with LNX_SITE_URL)
        writeFileSync(join(root, 'dist', paths.oembed), JSON.stringify(m.oembedDoc(lang, id, rel, true), null, 2) + '\n');
        figurePages++;
      }
    }
    // robots.txt (a crawler asking for it got the page's HTML), and the sitemap where the site's
    // address is known
    const robots = ['User-agent: *', 'Allow: /', ...(SITE ? [`Sitemap: ${new URL('sitemap.xml', SITE).href}`] : []), ''].join('\n');
    writeFileSync(join(root, 'dist/robots.txt'), robots);
    if (SITE) {
      const urls = m.COPY_LANGS.map((l) => `  <url><loc>${new URL(m.STATIC_COPIES[l], SITE).href}</loc></url>`).join('\n');
      writeFileSync(
        join(root, 'dist/sitemap.xml'),
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
      );
    }
    log(`prerender: ${figurePages} figure pages with their oEmbed documents; pictures ${Object.values(pictures).join(', ')}`);
    log(`prerender: ${written.length} copies in ${Date.now() - t0} ms; robots.txt${SITE ? ', sitemap.xml' : ' (LNX_SITE_URL unset: no sitemap)'}`);
    return written;
  } finally {
    await vite.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  prerender().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
