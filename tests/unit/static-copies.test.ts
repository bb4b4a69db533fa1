// The built page's language copies (web/src/prerender/copies.ts) and index.html's first script, which
// sends a reader to the copy of the language the live page will show. That script cannot import the
// page's modules (it runs before them), so this runs it against the live page's own rule: the
// language the live page gives Prefs (page/live-page.svelte.ts: parseLink's validated lang=, then
// initialLang; the copy's own language wins there, which the guard has made the same), and its theme.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COPY_LANGS, STATIC_COPIES, copyHref } from '../../web/src/prerender/copies';
import { ARTICLES } from '../../web/src/prerender/render';
import { initialLang, initialTheme } from '../../web/src/lib/prefs.svelte';
import { parseLink } from '../../web/src/lib/permalink';
import { LINKS } from '../../web/src/figures/registry';

describe('copies', () => {
  it('every language of the article has a copy, one at the front page', () => {
    expect(new Set(COPY_LANGS)).toEqual(new Set(Object.keys(ARTICLES)));
    expect(Object.values(STATIC_COPIES).filter((p) => p === '')).toHaveLength(1);
  });
  it.each([
    ['en', 'zh', 'zh/'],
    ['zh', 'en', '../'],
    ['en', 'en', './'],
    ['zh', 'zh', '../zh/'],
  ] as const)('from %s to %s: %s', (from, to, href) => expect(copyHref(from, to)).toBe(href));
});

const guardSource = (() => {
  const html = readFileSync(join(__dirname, '../../web/index.html'), 'utf8');
  const m = /<script id="lnx-embed-guard">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('web/index.html has no <script id="lnx-embed-guard">');
  return m[1];
})();

/** Runs the guard in the copy of `copyLang` at `search`; returns where it went and what it hid
 *  (and, in `attrs`, what it set on <html>: the theme, the mark that scripts run). `savedTheme`
 *  and `dark` (the system prefers dark) feed its theme. */
function runGuard(copyLang: 'en' | 'zh', search: string, saved: string | null, navLang: string, savedTheme: string | null = null, dark = false) {
  const attrs: Record<string, string> = {
    ...(STATIC_COPIES[copyLang] ? { 'data-lang-by-path': copyLang } : {}),
    'data-copies': JSON.stringify(Object.fromEntries(COPY_LANGS.filter((l) => l !== copyLang).map((l) => [l, copyHref(copyLang, l)]))),
  };
  const documentElement = {
    lang: copyLang === 'zh' ? 'zh-CN' : 'en',
    getAttribute: (k: string) => attrs[k] ?? null,
    setAttribute: (k: string, v: string) => void (attrs[k] = v),
  };
  let went: string | null = null;
  const location = { search, hash: '#x', replace: (u: string) => void (went = u) };
  const localStorage = { getItem: (k: string) => (k === 'lnx.theme' ? savedTheme : saved) };
  const matchMedia = (q: string) => ({ matches: dark && q === '(prefers-color-scheme: dark)' });
  new Function('document', 'location', 'localStorage', 'navigator', 'matchMedia', guardSource)(
    { documentElement },
    location,
    localStorage,
    { language: navLang },
    matchMedia,
  );
  return { went, hidden: 'data-prerender-hidden' in attrs, attrs };
}

/** The language the live page shows in the copy of `copy` (live-page.svelte.ts: Prefs gets the lang= the
 *  link validated, and the copy's address when it is not the front page). */
function liveLang(copy: 'en' | 'zh', search: string, saved: string | null, navLang: string) {
  const lang = parseLink(LINKS, search).state.lang;
  return initialLang(lang ? `lang=${lang}` : '', saved, navLang, STATIC_COPIES[copy] ? copy : null);
}

describe('the guard in index.html', () => {
  const searches = ['', '?lang=zh', '?lang=en', '?lang=%20zh%20', '?lang=zh&lang=en', '?lang=fr', '?lang=ZH', '?fig1.step=3&lang=zh'];
  const saveds = [null, 'zh', 'en', 'bogus'];
  const navs = ['en-US', 'zh-CN', 'zh-TW', 'de'];
  const cases = COPY_LANGS.flatMap((copy) => searches.flatMap((s) => saveds.flatMap((saved) => navs.map((nav) => [copy, s, saved, nav] as const))));
  it(`sends a reader to the live page's language, or leaves them on it (${cases.length} cases)`, () => {
    const wrong = cases.filter(([copy, search, saved, nav]) => {
      const want = liveLang(copy, search, saved, nav);
      const { went, hidden } = runGuard(copy, search, saved, nav);
      const expected = want === copy ? null : `${copyHref(copy, want)}${search}#x`;
      return went !== expected || hidden !== (want !== copy);
    });
    expect(wrong).toEqual([]);
  });
  it("the Chinese copy's address gives Chinese whatever the browser's language or the stored choice; lang= still overrides", () => {
    for (const saved of [null, 'en', 'zh'])
      for (const nav of ['en-US', 'de', 'zh-CN']) {
        expect(runGuard('zh', '', saved, nav)).toMatchObject({ went: null, hidden: false });
        expect(liveLang('zh', '', saved, nav)).toBe('zh');
      }
    expect(runGuard('zh', '?lang=en', 'zh', 'zh-CN').went).toBe('../?lang=en#x');
    // the front page is nobody's choice: it follows the stored choice, then the browser
    expect(runGuard('en', '', null, 'zh-CN').went).toBe('zh/#x');
    expect(runGuard('en', '', 'en', 'zh-CN').went).toBeNull();
  });
  it('an embed stays where it is, with the copy hidden', () => {
    for (const copy of COPY_LANGS) {
      expect(runGuard(copy, '?embed=fig3&lang=zh', null, 'en-US')).toMatchObject({ went: null, hidden: true });
      expect(runGuard(copy, '?embed=fig3', null, 'zh-CN')).toMatchObject({ went: null, hidden: true });
    }
  });
  it("sets the live page's theme before the first paint, and marks that scripts run", () => {
    const queries = ['', '?theme=dark', '?theme=light', '?theme=%20dark', '?theme=dark&theme=light', '?theme=blue', '?lang=zh&theme=dark'];
    const wrong: string[] = [];
    for (const q of queries)
      for (const savedTheme of [null, 'dark', 'light', 'bogus'])
        for (const dark of [false, true]) {
          // the live page's rule: the theme= the link validated, then initialTheme (page/live-page.svelte.ts)
          const theme = parseLink(LINKS, q).state.theme;
          const want = initialTheme(theme ? `theme=${theme}` : '', savedTheme, dark);
          const { attrs } = runGuard('en', q, null, 'en-US', savedTheme, dark);
          if (attrs['data-theme'] !== want || !('data-js' in attrs)) wrong.push(`${q} ${savedTheme} ${dark}: ${attrs['data-theme']}, want ${want}`);
        }
    expect(wrong).toEqual([]);
  });
  it('a page without copies (the dev server) hides the copy of another language and goes nowhere', () => {
    let hidden = false;
    const documentElement = { lang: 'en', getAttribute: () => null, setAttribute: (k: string) => void (hidden ||= k === 'data-prerender-hidden') };
    let went = null as string | null;
    new Function('document', 'location', 'localStorage', 'navigator', guardSource)(
      { documentElement },
      { search: '?lang=zh', hash: '', replace: (u: string) => void (went = u) },
      { getItem: () => null },
      { language: 'en-US' },
    );
    expect(went).toBeNull();
    expect(hidden).toBe(true);
  });
});
