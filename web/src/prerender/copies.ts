// prerender/copies.ts — where the build writes the article of each language as static HTML
// (scripts/prerender.mjs): one copy per language, each a whole page that also boots the live one.
// The English copy is the site's front page; the Chinese one sits under zh/. A reader without
// JavaScript moves between them by the static page's language link (StaticPage.svelte); with it,
// index.html's guard goes to the copy of the language the live page will show before anything
// paints, so nobody sees the wrong language first.
import type { Article } from '../content/types';

type Lang = Article['lang'];

/** Each language's copy, as a folder under the site's base ('' is the base itself). */
export const STATIC_COPIES: Record<Lang, string> = { en: '', zh: 'zh/' };

export const COPY_LANGS = Object.keys(STATIC_COPIES) as Lang[];

/** The address of `to`'s copy relative to `from`'s (from zh/ to the front page: '../'). */
export function copyHref(from: Lang, to: Lang): string {
  const up = STATIC_COPIES[from].split('/').filter(Boolean).length;
  return '../'.repeat(up) + STATIC_COPIES[to] || './';
}
