// types.ts — the contract of a figure: what its folder declares (figN/index.ts exports one
// FigureDef) and the props the page hands its component. figures/registry.ts lists the FigureDefs;
// the page (page/boot.ts, page/FigureIsland.svelte), its permalinks and downloads, and the tests read that list, so adding a
// figure is a folder, one entry in the registry and the figure's strings in content/{zh,en}.ts.
// The helpers at the end fill the rest: testFigure, the whole FigureDef of a test figure that draws a
// slot, from its own parts; choiceView, a view state of fields each one of a few values. A figure's
// live-run settings are not declared here: its slot's field table is (lib/settings.ts).
import type { Component, Snippet } from 'svelte';
import type { FigureId, FigureText } from '../content/types';
import type { Table } from '../lib/export';
import { written, type ParamGroup } from '../lib/permalink';
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
  /** a figure without a slot that draws documents of its own (the composer): the newest such
   *  document and when its live engine call finished (null: it is the precomputed one, ownFile),
   *  which its downloads' provenance names (engine, config, seeds); null while it has none */
  ownDoc?(): { doc: { engine?: unknown; config?: Record<string, unknown> }; liveAt: string | null } | null;
  /** such a figure's precomputed documents: a file of the site (`path`, under public/), which the build reads
   *  to draw the figure's copy (`use`), and which a page loads before it makes the figure live
   *  (`load`: so that the figure is hydrated as the build drew it); a failed load leaves the figure
   *  to compute live */
  ownFile?: { path: string; use(doc: unknown): void; load(): Promise<unknown> };
}

/** The view state of a figure that has none: nothing of it in the URL or the provenance. */
export type NoView = Record<string, never>;

/** The strings the page's shared parts ask of every test figure, which testFigure adds to its own:
 *  an item of its readout's list (lib/text.ts) and the quick setting's label (SlotSettings.svelte). */
export const TEST_STRINGS = ['readout.item', 'ctl.small'] as const;

/** What testFigure asks of a figure: its own parts of a FigureDef, and its downloads as functions of
 *  the drawn document (its long table) and of the document and the view (its JSON object). */
export interface TestFigureParts<D, V extends object> extends Pick<FigureDef<V, D>, 'id' | 'component' | 'strings' | 'slotOf'> {
  slot: SlotName;
  table: (doc: D | null) => Table;
  json: (doc: D | null, view: V) => unknown;
  /** its view state in the URL (choiceView); absent: none (NoView) */
  view?: ViewParams<V>;
  /** the view's part of the provenance; absent: the view state as it is */
  provenanceView?: (view: V) => Record<string, unknown>;
}

/** The FigureDef of a test of the article's inferences (series 'test') that draws a slot; without a
 *  view state, nothing of it in the URL or the provenance beyond the engine's. */
export const testFigure = <D, V extends object = NoView>({ strings, table, json, view, provenanceView, ...own }: TestFigureParts<D, V>): FigureDef<V, D> => ({
  ...own,
  series: 'test',
  strings: [...strings, ...TEST_STRINGS],
  view: view ?? { key: own.id, initial: {} as V, params: {}, write: () => [] },
  numbers: ({ doc, view: v }) => ({ table: table(doc), json: json(doc, v) }),
  provenanceView: provenanceView ?? ((v) => ({ ...v }) as Record<string, unknown>),
});

/**
 * The view state of a figure whose every field is one of a few values: each field in the URL as
 * `<id>.<field>` (a value it does not know is refused with the page string `url.<id>.<field>`),
 * written only where it differs from `initial`. `choices[field]`: its values, or the URL's name of
 * each value where they differ.
 */
export function choiceView<V extends { [K in keyof V]: string }>(
  id: FigureId,
  initial: NoInfer<V>,
  choices: { [K in keyof V]: readonly V[K][] | Record<V[K] & string, string> },
): ViewParams<V> {
  const fields = Object.keys(choices) as (keyof V & string)[];
  /** each field's values → their names in the URL, made once */
  const urlNames = Object.fromEntries(
    fields.map((f) => {
      const c = choices[f];
      return [f, Array.isArray(c) ? Object.fromEntries(c.map((v: string) => [v, v])) : (c as Record<string, string>)];
    }),
  ) as Record<keyof V & string, Record<string, string>>;
  return {
    key: id,
    initial,
    params: Object.fromEntries(
      fields.map((f) => {
        const names = urlNames[f];
        const parse = (u: string) => {
          const v = Object.keys(names).find((k) => names[k] === u);
          return v === undefined ? null : ({ [f]: v } as Partial<V>);
        };
        return [`${id}.${f}`, { parse, reason: `url.${id}.${f}` }];
      }),
    ),
    write: (s) => written(...fields.map((f) => s[f] !== initial[f] && ([`${id}.${f}`, urlNames[f][s[f]]] as [string, string]))),
  };
}
