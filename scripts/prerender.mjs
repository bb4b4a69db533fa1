#!/usr/bin/env node
// prerender.mjs — writes the article into the built page. `vite build` runs it once the bundle
// is written (the lnx-prerender plugin in vite.config.ts); by hand, on a fresh dist/:
// node scripts/prerender.mjs [--lang en|zh]. Without it dist/index.html has an empty
// <div id="app">: a reader without JavaScript saw only a <noscript> line, and everyone else saw
// nothing until the script, the article module and the precomputed results had arrived. This
// renders web/src/prerender/StaticPage.svelte with Svelte's own server renderer (through Vite's SSR
// loader: the same compiler and .svelte files as the page) from the precomputed documents in
// public/data/, for the page's default language, and puts it inside #app, marked data-prerendered.
// The live page replaces it once its own article and results are in (App.svelte); an embed or a
// reader of the other language never sees it (index.html's first script hides it before it paints).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const EMPTY = '<div id="app"></div>';

/** Write the `lang` article into dist/index.html; throws with a message saying what is missing. */
export async function prerender({ lang = 'en', log = console.log } = {}) {
  if (lang !== 'en' && lang !== 'zh') throw new Error(`prerender: the language must be en or zh, not ${JSON.stringify(lang)}`);
  const page = join(root, 'dist/index.html');
  if (!existsSync(page)) throw new Error('prerender: dist/index.html is missing: run `vite build` first');
  const html = readFileSync(page, 'utf8');
  if (!html.includes(EMPTY)) throw new Error('prerender: dist/index.html has no empty <div id="app"></div> (already prerendered? run `vite build` again)');

  const t0 = Date.now();
  const vite = await createServer({ configFile: join(root, 'vite.config.ts'), server: { middlewareMode: true, hmr: false }, appType: 'custom', logLevel: 'error' });
  try {
    const m = await vite.ssrLoadModule('/src/prerender/render.ts');
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
    // The static copy carries no live state: the tests and the page wait on the live figures'
    // data-state, which must not be answered by the copy the live page is about to replace.
    const body = m.renderStatic(lang, docs).replace(/ data-state="[^"]*"/g, '');
    const out = html
      .replace(EMPTY, `<div id="app"><div data-prerendered="${lang}">${body}</div></div>`)
      .replace(/<html lang="[^"]*"/, `<html lang="${lang === 'zh' ? 'zh-CN' : 'en'}"`);
    writeFileSync(page, out);
    log(`prerender: dist/index.html holds the ${lang} article (${(body.length / 1024).toFixed(0)} KiB of HTML, ${Date.now() - t0} ms)`);
  } finally {
    await vite.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const lang = args.includes('--lang') ? args[args.indexOf('--lang') + 1] : 'en';
  prerender({ lang }).catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
