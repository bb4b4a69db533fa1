// types.ts — the shape of the article as data. One file per language (zh.ts, en.ts) exports an
// `Article`, assembled from the skeleton both share (skeleton.ts: the section ids, block kinds and
// figure slots) and that language's words, with each figure's strings; components render it and
// never hold prose of their own. The page chrome's strings are content/ui-strings.ts.
//
// Inline text mini-language (rendered by web/src/lib/inline.ts):
//   $…$            inline KaTeX;  $$…$$ is not allowed inline (use a `math` block)
//   \role{in|op|norm|param|loss}{…}   inside TeX: colour a symbol by its role (shared palette)
//   **bold**, *italic*, `code`, [text](https://…)
//   {{key}}        a number measured by the engine, looked up in web/src/lib/prose-numbers.ts;
//                  never type a measured number into the prose directly.
//   {{#fig7}}      a reference to a figure, shown as its label ("Figure C"): the label follows
//                  page order (figures/registry.ts figureNumber), so never type a figure's number
//                  for one of the page's tests.

export type Lang = 'zh' | 'en';
/** The article's evidence labels: from the paper / inferred / guess / measured. */
export type Evidence = 'paper' | 'inferred' | 'guess' | 'measured';
/** A figure's id: "fig" and its number; the figures are listed in web/src/figures/registry.ts. */
export type FigureId = `fig${number}`;

export type Block =
  | { kind: 'p'; text: string; evidence?: Evidence; evidenceNote?: string }
  | { kind: 'math'; tex: string }
  | { kind: 'figure'; id: FigureId }
  | { kind: 'paperFigure'; text: string } // a description of one of the paper's own figures
  | { kind: 'code'; lang: string; code: string; caption?: string }
  | { kind: 'table'; head: string[]; rows: string[][]; caption?: string }
  | { kind: 'list'; items: string[]; ordered?: boolean }
  | { kind: 'callout'; text: string } // a question to the reader, a key takeaway
  | { kind: 'h3'; text: string }
  // the page's own test of one of the article's inferences, set beside the paragraph whose claim it
  // tests: the claim restated with its tag, what the engine measured, the verdict, and its figure
  | { kind: 'test'; title: string; blocks: Block[] };

export interface Section {
  id: string; // stable anchor, same in both languages
  title: string;
  blocks: Block[];
}

/** A figure's strings: its title, caption and the keys its folder declares (figures/figN/index.ts). */
export interface FigureText {
  title: string;
  caption: string; // inline mini-language allowed
  [key: string]: string; // labels, axis names, readout templates of this figure
}

export interface Article {
  lang: Lang;
  title: string;
  subtitle: string;
  evidenceLabels: Record<Evidence, string>;
  sections: Section[];
  figures: Record<FigureId, FigureText>;
}
