// text.ts — looking up interface strings: the page chrome's in content/ui-strings.ts, a figure's in
// the article (content/zh.ts, en.ts: `figures.figN`); `tpl` fills {name} placeholders. Pure functions.
import { placementLabel } from './placements';
import type { Article, FigureId, FigureText, Lang } from '../content/types';
import { UI_STRINGS } from '../content/ui-strings';

/** Fill {name} placeholders; unknown names stay visible as {name}. */
export function tpl(s: string, vars: Record<string, string | number> = {}): string {
  return s.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}

/** A page-chrome string (English when the language lacks it, the key itself when both do). */
export function uiString(lang: Lang, key: string): string {
  return UI_STRINGS[lang][key] ?? UI_STRINGS.en[key] ?? key;
}

/** A figure's strings from the article (title and caption empty while there is no article). */
export function figureText(article: Pick<Article, 'figures'> | null, id: FigureId): FigureText {
  return { title: '', caption: '', ...(article?.figures?.[id] ?? {}) } as FigureText;
}

/** A string of a FigureText, falling back to the key itself (visible, never undefined). */
export const ft = (text: FigureText, key: string, vars?: Record<string, string | number>): string => tpl(text[key] ?? key, vars);

/** A name with a note in parentheses after it, as the page's language writes one (page-chrome
 *  sep.aside): "Pre-LN (composed)", "Pre-LN（自组）". */
export const withAside = (t: (k: string) => string, name: string, note: string): string => `${name}${tpl(t('sep.aside'), { x: note })}`;

/** A readout's list: `name` and value `v` of each item as the figure's `readout.item`, joined as
 *  the page joins a list (`sep.list`). */
export const readoutList = <S>(text: FigureText, t: (k: string) => string, items: readonly S[], name: (s: S) => string, v: (s: S) => string): string =>
  items.map((s) => ft(text, 'readout.item', { name: name(s), v: v(s) })).join(t('sep.list'));

/** The readout of a figure of panels over steps (its `readout`: {panel} {t} {values}): the focused
 *  panel's title, the selected step `at` and the value there of each of the panel's series. */
export const panelReadout = <S>(
  text: FigureText,
  t: (k: string) => string,
  panel: string,
  at: number,
  series: readonly S[],
  name: (s: S) => string,
  v: (s: S) => string,
): string => ft(text, 'readout', { panel, t: at, values: readoutList(text, t, series, name, v) });

/** readoutList of per-placement series, each named as the page names its placement. */
export const placementReadout = <S extends { placement: string }>(text: FigureText, t: (k: string) => string, series: readonly S[], v: (s: S) => string) =>
  readoutList(text, t, series, (s) => placementLabel(s.placement, t), v);

/** Plain text of an inline heading (the table of contents, the citation's title): TeX unwrapped,
 *  emphasis and code marks dropped. */
export const plainHeading = (s: string) => s.replace(/\$[^$]*\$/g, (m) => m.slice(1, -1)).replace(/[*`]/g, '');
