// prerender/render.ts — what scripts/prerender.mjs loads through Vite's SSR loader to write the
// article into the built page: the static page of one language (StaticPage.svelte, Svelte's own
// server renderer) with each island rendered on its own (so the live page can hydrate it where it
// stands: page/boot.ts), where the precomputed documents it draws are, and where each language's
// copy goes (copies.ts).
import { render } from 'svelte/server';
import type { Component } from 'svelte';
import type { Article } from '../content/types';
import en from '../content/en';
import zh from '../content/zh';
import { SLOT_NAMES, precomputedPath, type SlotName } from '../lib/result-slots.svelte';
import StaticPage from './StaticPage.svelte';
import { withoutFields } from './fields';
import { COPY_LANGS, STATIC_COPIES, copyHref } from './copies';
import { htmlLang } from '../lib/prefs.svelte';
import { plainHeading, uiString } from '../lib/text';
import { FIGURES, FIGURE_IDS } from '../figures/registry';
import { asBuilt } from '../page/island-page';
import FigureIsland from '../page/FigureIsland.svelte';
import Toolbar from '../components/page/Toolbar.svelte';
import Citation from '../components/page/Citation.svelte';
import EngineStatus from '../components/page/EngineStatus.svelte';

export const ARTICLES: Record<Article['lang'], Article> = { en, zh };
export { SLOT_NAMES, precomputedPath, COPY_LANGS, STATIC_COPIES, copyHref, htmlLang };
/** KaTeX loads on demand (lib/tex.ts): the prerender awaits it before rendering a page. */
export { loadTex } from '../lib/tex';

/** What the head and the <noscript> of `lang`'s copy say, in that language: the article's title,
 *  the page's description and the no-JavaScript note. */
export const headText = (lang: Article['lang']) => ({
  title: plainHeading(ARTICLES[lang].title),
  description: uiString(lang, 'page.description'),
  noscript: uiString(lang, 'page.noscript'),
});

/** One island on its own: a root of its own (the markers hydration starts from), its $props.id()s
 *  prefixed with its name so that no two islands share one. */
const island = <P extends Record<string, unknown>>(name: string, C: Component<P>, props: P) => render(C, { props, idPrefix: `${name}-` }).body;

/** The files under public/ of the figures with documents of their own (FigureDef.ownFile: the
 *  composer's), each with what takes its document: the prerender reads each (when it is there) and
 *  gives it to its figure before it renders a page. */
export const OWN_FILES: readonly { path: string; use(doc: unknown): void }[] = FIGURES.flatMap((f) =>
  f.ownFile ? [{ path: f.ownFile.path, use: f.ownFile.use }] : [],
);

/** The page's body for `lang`, drawn from the precomputed documents `docs` (by slot); `url`: the
 *  copy's address where the site's is known (its citation names it), else ''. Without the form
 *  fields a browser fills in (fields.ts). */
export function renderStatic(lang: Article['lang'], docs: Partial<Record<SlotName, unknown>>, url = ''): string {
  const article = ARTICLES[lang];
  const page = asBuilt(article, docs);
  const other = COPY_LANGS.find((l) => l !== lang) ?? lang;
  const islands: Record<string, string> = {
    // the other language's copy; ?lang= keeps a reader with JavaScript there (index.html's guard)
    toolbar: island('toolbar', Toolbar, { lang, theme: 'light' as const, t: page.t, href: `${copyHref(lang, other)}?lang=${other}` }),
    ...Object.fromEntries(FIGURE_IDS.map((id) => [id, island(id, FigureIsland, { page, id })])),
    cite: island('cite', Citation, {
      t: page.t,
      title: plainHeading(article.title),
      url,
      version: page.results.probe.data?.engine?.version ?? page.results.grid.data?.engine?.version ?? null,
      lang,
    }),
    status: island('status', EngineStatus, { t: page.t }),
  };
  return withoutFields(render(StaticPage, { props: { article, page, islands } }).body);
}

export { ogPictureSvg, ogPictureAlt, ogPicturePath, oembedDoc, figurePage, webFoundPaths, figureTitle, OG_SIZE, FIGURE_IDS } from './web-found';
