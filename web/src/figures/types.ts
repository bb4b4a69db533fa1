// types.ts — the contract of a figure: what its folder declares (figN/index.ts exports one
// FigureDef) and the props the page hands its component. figures/registry.ts lists the FigureDefs;
// the page (page/boot.ts, page/FigureIsland.svelte), its permalinks and downloads, and the tests read that list, so adding a
// figure is a folder, one entry in the registry and the figure's strings in content/{zh,en}.ts.
// The helper at the end, testFigure, fills the whole FigureDef of a test figure that draws one slot and
// has no view state. A figure's live-run settings are not declared here: its slot's field table is
// (lib/settings.ts).
import type { Component, Snippet } from 'svelte';
import type { FigureId, FigureText } from '../content/types';
import type { Table } from '../lib/export';
import type { ParamGroup } from '../lib/permalink';
import type { SlotName } from '../lib/slots';
import type { DrawnState } from '../lib/runs/drawn-run';

/** Props every figure component gets from the page; a figure uses those it needs. */
export interface FigureProps<V extends object = object> {
  /** this figure's strings (article.figures[id]) */
  text: FigureText;
  /** page-chrome strings */
  t: (key: string) => string;
  /** the inline renderer (captions: KaTeX, \role colours, {{key}} numbers) */
  inline: (s: string) => string;
  /** "Figure N", shown before the title */
  label: string;
  /** the numbers the prose quotes, {{key}} → text (lib/prose-numbers.ts) */
  proseNumbers: Record<string, string>;
  /** the figure's view state (bindable): what a permalink carries of it */
  view: V;
  /** the Share menu; absent in an embed */
  tools?: Snippet;
}

/** A figure's view state in the URL: its parameters (group key = the figure id) and its default. */
export interface ViewParams<V extends object> extends ParamGroup<V> {
  initial: V;
}

/** What a figure's downloads are computed from. */
export interface NumbersInput<V, D> {
  text: FigureText;
  /** the prose numbers, as FigureProps.proseNumbers */
  proseNumbers: Record<string, string>;
  view: V;
  /** the drawn document of the figure's slot (the growing one while a run streams); null if none */
  doc: D | null;
}

export interface FigureDef<V extends object = object, D = unknown> {
  id: FigureId;
  /** which numbering the page shows it under (registry.ts figureNumber): 'article', one of the
   *  source article's figures, numbered 1, 2, … in page order; 'test', one of the page's own tests
   *  of the article's inferences, lettered A, B, … in page order. The id stays as it is (links). */
  series: 'article' | 'test';
  component: Component<FigureProps<V>, object, 'view'>;
  /** the keys of its strings besides `title` and `caption` (every figure has those: FigureText):
   *  content/zh.ts and en.ts give exactly these three kinds in `figures[id]` (registry stringKeysOf) */
  strings: readonly string[];
  /** the result slot it draws, or null: drawn from its strings alone */
  slot: SlotName | null;
  /** when the view chooses which slot is drawn (a toggle between two documents): that slot; its
   *  downloads and provenance follow it. Absent: always `slot`. */
  slotOf?(view: V): SlotName;
  view: ViewParams<V>;
  /** the numbers behind the figure: a long table (CSV) and a JSON object (lib/export.ts adds provenance) */
  numbers(input: NumbersInput<V, D>): { table: Table; json: unknown };
  /** work on a document of its slot that drawing it will read again, done before a reader's stored
   *  run is drawn, in a slice of its own (page/boot.ts): what a long run's drawing keeps per
   *  document (Figure 4: its panels). Absent: nothing worth doing ahead. */
  prepare?(doc: D): void;
  /** the figure's state that is not in the engine config, for the provenance of its downloads */
  provenanceView(view: V, live: { streaming: boolean; state?: DrawnState | null }): Record<string, unknown>;
  /** a figure without a slot that draws documents of its own live engine calls (the composer): the
   *  newest such document and when it finished, which its downloads' provenance names (engine,
   *  config, seeds); null while it has none */
  ownDoc?(): { doc: { engine?: unknown; config?: Record<string, unknown> }; liveAt: string } | null;
}

/** The view state of a figure that has none: nothing of it in the URL or the provenance. */
export type NoView = Record<string, never>;

/** What testFigure asks of a figure: its own parts of a FigureDef, and its downloads as functions of
 *  the drawn document alone (its long table, its JSON object). */
export interface TestFigureParts<D> extends Pick<FigureDef<NoView, D>, 'id' | 'component' | 'strings'> {
  slot: SlotName;
  table: (doc: D | null) => Table;
  json: (doc: D | null) => unknown;
}

/** The FigureDef of a test of the article's inferences (series 'test') that draws its one slot and
 *  has no view state (NoView: nothing in the URL, nothing in the provenance beyond the engine's). */
export const testFigure = <D>({ id, component, strings, slot, table, json }: TestFigureParts<D>): FigureDef<NoView, D> => ({
  id,
  series: 'test',
  component,
  strings,
  slot,
  view: { key: id, initial: {}, params: {}, write: () => [] },
  provenanceView: () => ({}),
  numbers: ({ doc }) => ({ table: table(doc), json: json(doc) }),
});
