// prerender/render.ts — what scripts/prerender.mjs loads through Vite's SSR loader to write the
// article into the built page: the static page of one language (StaticPage.svelte, Svelte's own
// server renderer), where the precomputed documents it draws are, and where each language's copy
// goes (copies.ts).
import { render } from 'svelte/server';
import type { Article } from '../content/types';
import en from '../content/en';
import zh from '../content/zh';
import { SLOT_NAMES, precomputedPath, type SlotName } from '../lib/result-slots.svelte';
import StaticPage from './StaticPage.svelte';
import { COPY_LANGS, STATIC_COPIES, copyHref } from './copies';
import { htmlLang } from '../lib/prefs.svelte';
import { plainHeading, uiString } from '../lib/text';

export const ARTICLES: Record<Article['lang'], Article> = { en, zh };
export { SLOT_NAMES, precomputedPath, COPY_LANGS, STATIC_COPIES, copyHref, htmlLang };

/** What the head and the <noscript> of `lang`'s copy say, in that language: the article's title,
 *  the page's description and the no-JavaScript note. */
export const headText = (lang: Article['lang']) => ({
  title: plainHeading(ARTICLES[lang].title),
  description: uiString(lang, 'page.description'),
  noscript: uiString(lang, 'page.noscript'),
});

/** The page's body for `lang`, drawn from the precomputed documents `docs` (by slot); `url`: the
 *  copy's address where the site's is known (its citation names it), else ''. */
export function renderStatic(lang: Article['lang'], docs: Partial<Record<SlotName, unknown>>, url = ''): string {
  return render(StaticPage, { props: { article: ARTICLES[lang], docs, url } }).body;
}

export { ogPictureSvg, ogPictureAlt, ogPicturePath, oembedDoc, figurePage, webFoundPaths, figureTitle, OG_SIZE, FIGURE_IDS } from './web-found';
