// prefs.svelte.ts — language and theme, the two page-wide preferences.
//
// Language: ?lang=zh|en overrides; else the address of a language's copy away from the front page
// (zh/: the built page marks it data-lang-by-path, scripts/prerender.mjs); else localStorage
// 'lnx.lang'; else navigator.language (zh* → zh).
// Theme:    ?theme=light|dark overrides; else localStorage 'lnx.theme'; else prefers-color-scheme.
// Toggling stores the choice and rewrites the query parameter so a reload keeps it.
// The theme is applied as data-theme on <html> (styles/tokens.css switches on it).
import type { Lang } from '../content/types';

export type Theme = 'light' | 'dark';
const isLang = (s: unknown): s is Lang => s === 'zh' || s === 'en';
const isTheme = (s: unknown): s is Theme => s === 'light' || s === 'dark';

/** The HTML language tag of a page language (lang="…", hreflang). */
export const htmlLang = (l: Lang): string => (l === 'zh' ? 'zh-CN' : 'en');

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function store(key: string, v: string) {
  try {
    localStorage.setItem(key, v);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}
/** The language the page's address chooses (the zh/ copy), or null (the front page, the dev server). */
function pathLang(): Lang | null {
  const l = typeof document === 'undefined' ? null : document.documentElement.getAttribute('data-lang-by-path');
  return isLang(l) ? l : null;
}
/** Rewrite a query parameter that is there (or add it: `always`). */
function setParam(name: string, v: string, always = false) {
  const u = new URL(location.href);
  if (!always && !u.searchParams.has(name)) return;
  u.searchParams.set(name, v);
  history.replaceState(history.state, '', u);
}

/** Pure: the initial language from the query string, storage and browser language. */
export function initialLang(query: string, saved: string | null, navLang: string | undefined, byPath: Lang | null = null): Lang {
  const q = new URLSearchParams(query).get('lang');
  if (isLang(q)) return q;
  if (byPath) return byPath;
  if (isLang(saved)) return saved;
  return (navLang ?? '').toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** Pure: the initial theme. */
export function initialTheme(query: string, saved: string | null, prefersDark: boolean): Theme {
  const q = new URLSearchParams(query).get('theme');
  if (isTheme(q)) return q;
  if (isTheme(saved)) return saved;
  return prefersDark ? 'dark' : 'light';
}

export class Prefs {
  lang = $state<Lang>('en');
  /** the language the page's address chooses (zh/), read once at start */
  private byPath: Lang | null = null;
  theme = $state<Theme>('light');

  /** `query`: the query string to read lang/theme from (the live page passes only what the link validated). */
  constructor(query: string = location.search) {
    this.byPath = pathLang();
    this.lang = initialLang(query, stored('lnx.lang'), navigator.language, this.byPath);
    this.theme = initialTheme(query, stored('lnx.theme'), matchMedia?.('(prefers-color-scheme: dark)').matches ?? false);
    this.applyTheme();
  }

  setLang(l: Lang) {
    this.lang = l;
    store('lnx.lang', l);
    // on a language's own address (zh/) the query must say otherwise, or a reload goes back
    setParam('lang', l, this.byPath != null && this.byPath !== l);
  }
  toggleLang() {
    this.setLang(this.lang === 'zh' ? 'en' : 'zh');
  }
  toggleTheme() {
    this.setTheme(this.theme === 'dark' ? 'light' : 'dark');
  }
  /** Switch the theme; `persist` false (an embed told by its host) leaves storage and URL alone. */
  setTheme(theme: Theme, persist = true) {
    this.theme = theme;
    if (persist) {
      store('lnx.theme', theme);
      setParam('theme', theme);
    }
    this.applyTheme();
  }
  private applyTheme() {
    document.documentElement.dataset.theme = this.theme;
  }
}
