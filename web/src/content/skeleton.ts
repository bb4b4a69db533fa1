// skeleton.ts — the article's shape, written once for both languages: its sections in page order
// and, in each, its blocks: which kind, the evidence tag of a paragraph, the figure slots, the
// page's test asides and what they hold, a list's length, a table's shape, the formulas that have
// no words. Each language (en.ts, zh.ts) is an `ArticleText`: the words, in a flat map keyed by
// where they stand; `assemble` puts the two together into the `Article` (types.ts) every consumer
// reads. tests/unit/content.test.ts fails on a key a language lacks or one the skeleton has no
// place for; `npm run gen:content-docs` (scripts/content-docs.mjs) writes ui-keys.md and
// prose-numbers.md from both.
//
// A block is written as
//   'p'  'p paper'  'p inferred note'    a paragraph; its evidence tag; `note`: the tag has a note
//   'math'  'h3'  'callout'  'paperFigure'   a block of words (a formula with words in it: `math`)
//   { math: r`…` }                       a formula with no words, the same in both languages
//   a figure's id, e.g. fig1, quoted     its slot (figures/registry.ts)
//   { list: n, ordered: true }           a list of n items
//   { table: [columns, rows] }           a table with a caption
//   { code: lang }                       the code listing, with a caption
//   { test: [blocks…] }                  the page's own test of one of the article's inferences
// Text keys follow the place: `<section>.<kind><n>`, n counting the blocks of that kind in the
// section (or in the test aside, whose blocks are `<section>.test<n>.<kind><m>`), 1-based: the third
// paragraph of `hook` is `hook.p3`, its evidence note `hook.p3.note`. The rest: `<section>.title`,
// `<test>.title`, a list's items `<list>.1`…, a table's `<table>.caption`, `<table>.head.<column>`
// and cells `<table>.<row>.<column>`, the listing `<code>` and `<code>.caption`. A block put in
// between renumbers only the blocks of its kind after it, in both languages.
import type { Article, Block, Evidence, FigureId, FigureText, Lang, Section } from './types';

const r = String.raw;

type Slot =
  | 'p'
  | `p ${Evidence}`
  | `p ${Evidence} note`
  | 'math'
  | 'h3'
  | 'callout'
  | 'paperFigure'
  | FigureId
  | { math: string }
  | { list: number; ordered?: true }
  | { table: [number, number] }
  | { code: string }
  | { test: Slot[] };

/** One language's words: the article's head, the blocks' text by key, each figure's strings. */
export interface ArticleText {
  lang: Lang;
  title: string;
  subtitle: string;
  evidenceLabels: Record<Evidence, string>;
  text: Record<string, string>;
  figures: Record<FigureId, FigureText>;
}

/** The sections in page order: [id, ...blocks]. */
export const SKELETON: [string, ...Slot[]][] = [
  [
    'hook',
    'p paper note',
    'p',
    { math: r`\mathrm{lr}(t)=\frac{t}{T_{\text{warmup}}}\,\mathrm{lr}_{\max},\qquad t\le T_{\text{warmup}}` },
    'p',
    'p',
    'paperFigure',
    'p paper note',
    'p',
    'p paper note',
    'p',
    'p',
    'p inferred note',
    { list: 3, ordered: true },
    'p inferred note',
  ],
  [
    'placements',
    'p',
    {
      math: r`\text{Post-LN:}\quad x\leftarrow \role{norm}{\mathrm{LN}}\big(\role{in}{x}+\role{op}{F}(\role{in}{x})\big)\qquad\qquad \text{Pre-LN:}\quad x\leftarrow \role{in}{x}+\role{op}{F}\big(\role{norm}{\mathrm{LN}}(\role{in}{x})\big)`,
    },
    'p',
    'fig1',
    'p',
    'p',
    { list: 3, ordered: true },
    'p',
    'p paper note',
  ],
  [
    'jacobian',
    'p',
    {
      math: r`\role{norm}{\mathrm{LN}}(\role{in}{x})=\frac{\role{in}{x}-\mu\mathbf 1}{\sigma},\qquad \mu=\frac1d\sum_k \role{in}{x_k},\qquad \sigma^2=\frac1d\sum_k (\role{in}{x_k}-\mu)^2`,
    },
    'p',
    'p',
    'callout',
    'p',
    {
      math: r`J_{\role{norm}{\mathrm{LN}}}(\role{in}{x})=\frac{\sqrt d}{\lVert y\rVert_2}\Big(I-\frac{y y^\top}{\lVert y\rVert_2^2}\Big)\Big(I-\frac1d\mathbf 1\mathbf 1^\top\Big),\qquad \lVert J_{\role{norm}{\mathrm{LN}}}(\role{in}{x})\rVert_2=O\Big(\frac{\sqrt d}{\lVert \role{in}{x}\rVert_2}\Big)`,
    },
    'p',
    'p',
  ],
  [
    'residual',
    'p',
    'p',
    'p',
    'h3',
    'p',
    'h3',
    'p',
    { math: r`\Big(1+\frac l2\Big)d\ \le\ \mathbb E\lVert \role{in}{x^{\text{pre}}_{l}}\rVert^2\ \le\ \Big(1+\frac{3l}{2}\Big)d` },
    'p',
    'p measured note',
    'p',
    'p measured note',
    'fig2',
    'p',
    'p',
    'callout',
  ],
  [
    'theorem',
    'p',
    {
      math: r`\text{Post-LN:}\ \Big\lVert \frac{\partial\role{loss}{\tilde{\mathcal L}}}{\partial \role{param}{W^{2,L}}}\Big\rVert_F\le O\big(d\sqrt{\ln d}\big)\qquad\qquad \text{Pre-LN:}\ \Big\lVert \frac{\partial\role{loss}{\tilde{\mathcal L}}}{\partial \role{param}{W^{2,L}}}\Big\rVert_F\le O\Big(d\sqrt{\frac{\ln d}{L}}\Big)`,
    },
    'p',
    'h3',
    'p inferred note',
    { list: 3, ordered: true },
    'p',
    { math: r`\sqrt{d^2\cdot \frac{d}{(3/2)d}\cdot 2\ln 100d}=O\big(d\sqrt{\ln d}\big)` },
    'p',
    'h3',
    'p',
    'p',
    'p',
  ],
  [
    'bounds-gap',
    'p paper note',
    'p',
    'paperFigure',
    'p',
    'h3',
    'p',
    'p guess',
    'h3',
    'p measured note',
    'p',
    'fig3',
    { test: ['p', 'p guess', 'p measured note', 'fig6'] },
  ],
  [
    'depth',
    'p paper note',
    'p',
    'p',
    'p',
    'math',
    'p',
    'p measured note',
    'p',
    'p guess',
    'p',
    { test: ['p inferred', 'p measured note', 'fig11'] },
    'h3',
    'p measured note',
    'p',
    'h3',
    'p',
    { code: 'python' },
  ],
  [
    'adam',
    'p',
    'p',
    {
      math: r`\Delta\role{param}{\theta}_1=-\mathrm{lr}\cdot\frac{\hat m_1}{\sqrt{\hat v_1}+\epsilon}=-\mathrm{lr}\cdot\frac{g}{|g|+\epsilon}\approx-\mathrm{lr}\cdot\mathrm{sign}(g)`,
    },
    'p inferred note',
    { test: ['p inferred', 'p measured note', 'fig7', 'p measured note', 'fig17'] },
    'p inferred',
    { test: ['p inferred', 'p measured note', 'fig10'] },
    'p',
    { test: ['p inferred', 'p measured note', 'fig5'] },
    'p inferred note',
    'p inferred note',
    { test: ['p inferred', 'p measured note', 'fig12'] },
    'callout',
  ],
  [
    'toy',
    'p',
    'fig4',
    'p measured note',
    'p measured note',
    'p measured note',
    'p inferred',
    { test: ['p inferred', 'p measured note', 'fig8'] },
    'h3',
    'p',
    'p',
    { test: ['p measured', 'p measured note', 'fig9'] },
    { test: ['p inferred', 'p measured note', 'fig19'] },
  ],
  ['experiments', 'p', { table: [6, 6] }, 'p paper note', 'paperFigure'],
  ['reversed', 'p', 'p paper note', { math: r`\frac{700}{500}=1.4` }, 'p'],
  ['confounders', 'h3', 'p inferred', 'h3', 'p', 'h3', 'p paper note', 'p', 'h3', 'p', 'h3', 'p'],
  ['timeline', 'callout', 'p inferred note', 'p inferred note', 'p inferred note', 'p inferred note', 'p inferred note', 'p inferred note'],
  [
    'cost',
    'p',
    'p',
    'p',
    { test: ['p inferred', 'p measured note', 'fig13', 'p measured note', 'fig20'] },
    'p',
    'p inferred',
    { test: ['p inferred', 'p measured note', 'fig14'] },
    { test: ['p inferred', 'p measured note', 'fig18'] },
  ],
  ['lessons', 'p', 'p', 'p', 'p', { list: 3, ordered: true }, { test: ['p inferred', 'p measured note', 'fig15'] }, 'p', 'fig16'],
];

/** The blocks of `slots`, their words looked up by `t` under keys starting with `at`. */
function blocksOf(slots: Slot[], at: string, t: (key: string) => string): Block[] {
  const seen: Record<string, number> = {};
  const key = (kind: string) => `${at}.${kind}${(seen[kind] = (seen[kind] ?? 0) + 1)}`;
  const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  return slots.map((s): Block => {
    if (typeof s === 'string') {
      const [kind, evidence, note] = s.split(' ') as [string, Evidence?, string?];
      if (/^fig\d+$/.test(kind)) return { kind: 'figure', id: kind as FigureId };
      const k = key(kind);
      if (kind === 'math') return { kind, tex: t(k) };
      if (kind !== 'p') return { kind: kind as 'h3' | 'callout' | 'paperFigure', text: t(k) };
      return { kind, text: t(k), ...(evidence && { evidence }), ...(note && { evidenceNote: t(`${k}.note`) }) };
    }
    if ('math' in s) return { kind: 'math', tex: s.math };
    if ('list' in s) {
      const k = key('list');
      return { kind: 'list', ...(s.ordered && { ordered: true }), items: range(s.list).map((i) => t(`${k}.${i}`)) };
    }
    if ('table' in s) {
      const k = key('table');
      const [columns, rows] = s.table;
      const row = (i: number | 'head') => range(columns).map((c) => t(`${k}.${i}.${c}`));
      return { kind: 'table', caption: t(`${k}.caption`), head: row('head'), rows: range(rows).map(row) };
    }
    if ('code' in s) {
      const k = key('code');
      return { kind: 'code', lang: s.code, caption: t(`${k}.caption`), code: t(k) };
    }
    const k = key('test');
    return { kind: 'test', title: t(`${k}.title`), blocks: blocksOf(s.test, k, t) };
  });
}

const sectionsOf = (t: (key: string) => string): Section[] =>
  SKELETON.map(([id, ...slots]) => ({ id, title: t(`${id}.title`), blocks: blocksOf(slots, id, t) }));

/** Every text key the skeleton asks a language for, in page order. */
export function textKeys(): string[] {
  const keys: string[] = [];
  sectionsOf((k) => (keys.push(k), k));
  return keys;
}

/** The Article of one language: the skeleton with its words (a key it lacks shows as its name). */
export function assemble({ lang, title, subtitle, evidenceLabels, text, figures }: ArticleText): Article {
  return { lang, title, subtitle, evidenceLabels, sections: sectionsOf((k) => text[k] ?? k), figures };
}
