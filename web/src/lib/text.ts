// text.ts — looking up interface strings: the article's own (zh.ts / en.ts) first, then the
// defaults in content/ui-defaults.ts; `tpl` fills {name} placeholders. Pure functions.
import type { Article, FigureId, FigureText, Lang } from '../content/types';
import { FIG_DEFAULTS, UI_DEFAULTS } from '../content/ui-defaults';

/** Fill {name} placeholders; unknown names stay visible as {name}. */
export function tpl(s: string, vars: Record<string, string | number> = {}): string {
  return s.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}

/** A page-chrome string. */
export function uiString(article: Pick<Article, 'ui'> | null, lang: Lang, key: string): string {
  return article?.ui?.[key] ?? UI_DEFAULTS[lang][key] ?? UI_DEFAULTS.en[key] ?? key;
}

/** A figure's strings: the article's FigureText over the defaults. */
export function figureText(article: Pick<Article, 'figures'> | null, lang: Lang, id: FigureId): FigureText {
  const d = FIG_DEFAULTS[lang][id] ?? FIG_DEFAULTS.en[id] ?? {};
  return { title: '', caption: '', ...d, ...(article?.figures?.[id] ?? {}) } as FigureText;
}

/** A string of a FigureText, falling back to the key itself (visible, never undefined). */
export const ft = (text: FigureText, key: string, vars?: Record<string, string | number>): string =>
  tpl(text[key] ?? key, vars);
