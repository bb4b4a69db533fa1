// prerender/web-found.ts — what the build writes so that a link to the page or to one of its
// figures unfolds somewhere else (scripts/prerender.mjs writes the files; docs/sharing.md, "Found
// on the web" and "Pasting a link into a blog", says what each host does with them). Pure:
//   ogPictureSvg   the Open Graph / Twitter picture of a copy (1200 × 630), an SVG drawn from the
//                  precomputed grid (Figure 4's first panel, through the figure's own transform)
//                  with the article's title in that copy's language; the build rasterises it
//   figurePage     a small static page per figure and language (f/fig4/, zh/f/fig4/): the figure's
//                  cards, its oEmbed discovery link, and a redirect to the figure in the article
//   oembedDoc      that figure's oEmbed document (type "rich": the Share panel's iframe snippet)
import type { Article, FigureId } from '../content/types';
import type { GridResult } from '../engine/documents';
import { buildPanels } from '../figures/fig4/transform';
import { FIGURE_IDS, figureLabel, figureStrings } from '../figures/registry';
import { embedSnippet } from '../lib/permalink';
import { plainInline } from '../lib/plain-inline';
import { plainHeading, tpl, uiString } from '../lib/text';
import en from '../content/en';
import zh from '../content/zh';
import { STATIC_COPIES } from './copies';

const ARTICLES: Record<Article['lang'], Article> = { en, zh };

type Lang = Article['lang'];

export const OG_SIZE = { width: 1200, height: 630 } as const;
/** The provider every oEmbed document names. */
export const PROVIDER = 'ln-explorable';

/**
 * The height (CSS px) an embed of each figure is given where the host keeps only the iframe (a
 * WordPress site strips the resizer script): the figure alone at 640 px wide, measured in Chromium
 * (tests/e2e/web-found.mjs prints them and checks that each still covers its figure; the English
 * ones, the taller), with about a tenth more.
 */
export const EMBED_HEIGHTS: Record<FigureId, number> = {
  fig1: 640,
  fig2: 780,
  fig3: 1340,
  fig4: 980,
  fig5: 940,
  fig6: 900,
  fig7: 760,
  fig8: 980,
  fig9: 1040,
  fig10: 900,
  fig11: 1000,
  fig12: 1200,
  fig13: 1300,
  fig15: 1320,
  fig16: 1600,
  fig17: 1160,
  fig18: 950,
  fig19: 940,
};
export const EMBED_WIDTH = 640;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const t = (lang: Lang) => (key: string) => uiString(lang, key);

/** "Figure 4: Warm-up at toy scale" in `lang`. */
export const figureTitle = (lang: Lang, id: FigureId): string => `${figureLabel(id, t(lang))}: ${plainInline(figureStrings(ARTICLES[lang], id).title)}`;

/** A string's width in em, roughly (CJK and full-width characters 1 em, the rest about 0.55). */
const emWidth = (s: string) => [...s].reduce((w, c) => w + (/[\u2e80-\uffef]/.test(c) ? 1 : /[A-Z]/.test(c) ? 0.68 : 0.55), 0);

/** `s` broken into lines of at most `max` em (at spaces; CJK text anywhere). */
export function wrapText(s: string, max: number): string[] {
  const words = /[\u2e80-\uffef]/.test(s) ? [...s] : s.split(' ');
  const sep = words.length === s.length ? '' : ' ';
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    const next = line ? line + sep + w : w;
    if (line && emWidth(next) > max) {
      lines.push(line);
      line = w;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

const PLACEMENT_COLOUR: Record<string, string> = { post: '#6b6b6b', pre: '#7b3fbf' };
const PLACEMENT_NAME: Record<string, string> = { post: 'Post-LN', pre: 'Pre-LN', peri: 'Peri-LN', deepnorm: 'DeepNorm', admin: 'Admin' };

/**
 * The picture of `lang`'s copy: the title, then Figure 4's first panel (the seed-mean loss of each
 * placement and warm-up of the precomputed grid `grid`) with its legend and the figure's label.
 * `text: false` leaves out every string of the language (for a build without a font for it): the
 * chart, the placements' names and the numbers stay.
 */
export function ogPictureSvg(lang: Lang, grid: GridResult | null, { text = true }: { text?: boolean } = {}): string {
  const { width: W, height: H } = OG_SIZE;
  const ink = '#1d1d1f';
  const muted = '#5c5c60';
  const font = lang === 'zh' ? `'WenQuanYi Micro Hei', 'Noto Sans CJK SC', 'KaTeX_SansSerif'` : `'KaTeX_SansSerif'`;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${esc(font)}">`,
    `<rect width="${W}" height="${H}" fill="#fbfaf7"/>`,
    `<rect x="0" y="0" width="${W}" height="10" fill="#7b3fbf"/>`,
  ];
  let y = 92;
  if (text) {
    const title = plainHeading(ARTICLES[lang].title);
    const size = lang === 'zh' ? 46 : 50;
    for (const line of wrapText(title, (W - 128) / size).slice(0, 2)) {
      out.push(`<text x="64" y="${y}" font-size="${size}" font-weight="bold" fill="${ink}">${esc(line)}</text>`);
      y += size * 1.22;
    }
  } else y += 60;
  // the chart: Figure 4's first panel, through the figure's own transform
  const P = buildPanels(grid);
  const panel = P.panels[0];
  const box = { x0: 130, x1: 860, y0: Math.max(y + 10, 200), y1: 560 };
  const [xa, xb] = P.xDomain;
  const [ya, yb] = P.yDomain;
  const sx = (x: number) => box.x0 + ((x - xa) / (xb - xa || 1)) * (box.x1 - box.x0);
  const sy = (v: number) => box.y1 - ((v - ya) / (yb - ya || 1)) * (box.y1 - box.y0);
  out.push(`<g fill="none" stroke="#b8b8bc" stroke-width="1.5"><path d="M${box.x0} ${box.y0} V${box.y1} H${box.x1}"/></g>`);
  for (let v = Math.ceil(ya / 2) * 2; v <= yb; v += 2) {
    out.push(`<text x="${box.x0 - 14}" y="${sy(v) + 8}" font-size="22" text-anchor="end" fill="${muted}">${v}</text>`);
  }
  for (const s of [0, P.steps]) out.push(`<text x="${sx(s)}" y="${box.y1 + 34}" font-size="22" text-anchor="middle" fill="${muted}">${s}</text>`);
  const fig = figureStrings(ARTICLES[lang], 'fig4');
  if (text) {
    out.push(`<text x="${(box.x0 + box.x1) / 2}" y="${box.y1 + 34}" font-size="22" text-anchor="middle" fill="${muted}">${esc(fig.axisStep)}</text>`);
    out.push(
      `<text transform="translate(${box.x0 - 52} ${(box.y0 + box.y1) / 2}) rotate(-90)" font-size="22" text-anchor="middle" fill="${muted}">${esc(fig.axisLoss)}</text>`,
    );
  }
  if (P.refs?.optimal != null && Number.isFinite(P.refs.optimal)) {
    const r = sy(P.refs.optimal);
    out.push(`<path d="M${box.x0} ${r} H${box.x1}" stroke="#8a8a8e" stroke-width="2" stroke-dasharray="2 6" fill="none"/>`);
    out.push(`<text x="${box.x0 + 12}" y="${r - 10}" font-size="22" fill="${muted}">ln 4</text>`);
  }
  for (const s of panel?.series ?? []) {
    const pts = s.mean.filter((p) => Number.isFinite(p.y) && p.y >= ya && p.y <= yb);
    if (!pts.length) continue;
    const d = pts.map((p, i) => `${i ? 'L' : 'M'}${sx(p.x).toFixed(1)} ${sy(p.y).toFixed(1)}`).join('');
    const dash = s.dash
      ? ` stroke-dasharray="${s.dash
          .split(' ')
          .map((n) => Number(n) * 2.5)
          .join(' ')}"`
      : '';
    out.push(`<path d="${d}" fill="none" stroke="${PLACEMENT_COLOUR[s.placement] ?? '#3a7ca5'}" stroke-width="5" stroke-linejoin="round"${dash}/>`);
  }
  // legend: colour = placement, line style = warm-up
  let ly = box.y0 + 20;
  for (const p of P.placements) {
    out.push(`<path d="M900 ${ly} h56" stroke="${PLACEMENT_COLOUR[p] ?? '#3a7ca5'}" stroke-width="6"/>`);
    out.push(`<text x="972" y="${ly + 9}" font-size="28" fill="${ink}">${esc(PLACEMENT_NAME[p] ?? p)}</text>`);
    ly += 46;
  }
  ly += 14;
  for (const w of P.warmups) {
    const dash = panel?.series.find((s) => s.warmup === w)?.dash ?? '';
    const label = text ? (w === 0 ? fig.noWarmup : tpl(fig.warmup, { w })) : String(w);
    const da = dash
      ? ` stroke-dasharray="${dash
          .split(' ')
          .map((n) => Number(n) * 2.5)
          .join(' ')}"`
      : '';
    out.push(`<path d="M900 ${ly} h56" stroke="${ink}" stroke-width="4"${da}/>`);
    out.push(`<text x="972" y="${ly + 9}" font-size="24" fill="${ink}">${esc(label)}</text>`);
    ly += 42;
  }
  if (text) {
    const caption = wrapText(figureTitle(lang, 'fig4'), (W - 900 - 40) / 24).slice(0, 3);
    ly = Math.max(ly + 30, 470);
    for (const line of caption) {
      out.push(`<text x="900" y="${ly}" font-size="24" fill="${muted}">${esc(line)}</text>`);
      ly += 32;
    }
  }
  out.push('</svg>');
  return out.join('\n');
}

/** What the alt text of `lang`'s picture says. */
export const ogPictureAlt = (lang: Lang): string => `${plainHeading(ARTICLES[lang].title)} — ${figureTitle(lang, 'fig4')}`;

/** Where the build writes each file, relative to the site's base (and the page's address of a figure). */
export const webFoundPaths = (copy: string, id: FigureId) => ({
  page: `${copy}f/${id}/`,
  oembed: `${copy}f/${id}/oembed.json`,
});
export const ogPicturePath = (lang: Lang) => `og/${lang}.png`;

/**
 * The oEmbed document of figure `id` in `lang` (oEmbed 1.0, type "rich"): `html` is the iframe
 * snippet the Share panel gives for the figure's default view, with width and height attributes
 * as well (a host that strips the style keeps those). `rel` maps a path under the site's base to
 * the address written: absolute where the build knows the site's address (LNX_SITE_URL), else
 * relative to the document itself, which only a reader of the file resolves (the e2e does; a blog
 * needs the absolute one).
 */
export function oembedDoc(lang: Lang, id: FigureId, rel: (path: string) => string, hasPicture: boolean) {
  const embedSrc = `${rel(STATIC_COPIES[lang])}?embed=${id}&lang=${lang}&theme=light`;
  const title = figureTitle(lang, id);
  const height = EMBED_HEIGHTS[id] ?? 1000;
  const html = embedSnippet(embedSrc, title, height, rel('embed.js')).replace(' data-lnx-embed', ` width="${EMBED_WIDTH}" height="${height}" data-lnx-embed`);
  const thumb = hasPicture ? { thumbnail_url: rel(ogPicturePath(lang)), thumbnail_width: OG_SIZE.width, thumbnail_height: OG_SIZE.height } : {};
  return {
    version: '1.0',
    type: 'rich',
    title,
    provider_name: PROVIDER,
    provider_url: rel(STATIC_COPIES[lang]),
    width: EMBED_WIDTH,
    height,
    html,
    ...thumb,
  };
}

/**
 * The page of figure `id` in `lang` (f/fig4/ under the copy's folder): what a host that fetches a
 * pasted link reads (its title, description, cards and oEmbed discovery link), and for a reader a
 * redirect to the figure in the article, keeping the link's query (a view the figure's parameters
 * name). `rel` maps a path under the site's base to the address written (absolute with the site's
 * address, else relative to this page); `articleHref` is the copy relative to this page.
 */
export function figurePage(lang: Lang, id: FigureId, o: { rel: (path: string) => string; articleHref: string; htmlLang: string; hasPicture: boolean }): string {
  const title = `${figureTitle(lang, id)} — ${plainHeading(ARTICLES[lang].title)}`;
  const description = uiString(lang, 'page.description');
  const to = `${o.articleHref}?lang=${lang}#${id}`;
  const paths = webFoundPaths(STATIC_COPIES[lang], id);
  const meta = [
    ['property', 'og:type', 'article'],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ['property', 'og:url', o.rel(paths.page)],
    ...(o.hasPicture
      ? [
          ['property', 'og:image', o.rel(ogPicturePath(lang))],
          ['property', 'og:image:width', String(OG_SIZE.width)],
          ['property', 'og:image:height', String(OG_SIZE.height)],
          ['property', 'og:image:alt', ogPictureAlt(lang)],
          ['name', 'twitter:card', 'summary_large_image'],
          ['name', 'twitter:image', o.rel(ogPicturePath(lang))],
        ]
      : [['name', 'twitter:card', 'summary']]),
  ];
  return [
    '<!doctype html>',
    `<html lang="${esc(o.htmlLang)}">`,
    '<head>',
    '<meta charset="utf-8" />',
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    `<title>${esc(title)}</title>`,
    `<meta name="description" content="${esc(description)}" />`,
    '<meta name="robots" content="noindex, follow" />',
    `<link rel="canonical" href="${esc(o.rel(STATIC_COPIES[lang]))}" />`,
    `<link rel="alternate" type="application/json+oembed" href="${esc(o.rel(paths.oembed))}" title="${esc(figureTitle(lang, id))}" />`,
    ...meta.map(([k, n, v]) => `<meta ${k}="${n}" content="${esc(v)}" />`),
    `<meta http-equiv="refresh" content="0; url=${esc(to)}" />`,
    // a reader with JavaScript keeps the link's query (the figure's view) on the way
    `<script>location.replace(${JSON.stringify(o.articleHref)} + (location.search || ${JSON.stringify(`?lang=${lang}`)}) + ${JSON.stringify(`#${id}`)});</script>`,
    '</head>',
    '<body>',
    `<p><a href="${esc(to)}">${esc(figureTitle(lang, id))}</a></p>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export { FIGURE_IDS, STATIC_COPIES };
