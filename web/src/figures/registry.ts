// registry.ts — every figure of the page, in page order, and what the page derives from the list:
// the figure ids, the permalink's parameter groups and its defaults, the figures' numbers. App.svelte,
// the permalink and download code, the scripts (scripts/registry.mjs) and the tests read FIGURES;
// nothing else names a figure.
//
// The experiments a figure draws are declared one level down, in web/src/experiments/<name>.ts (its
// result slots: precomputed file, recompute config, small setting, verdict rules, and the shape that
// types its document and is checked against the real ones). They sit there, not in the figure's
// FigureDef, because lib/ (the slots, the run list's headlines and import checks, the prose numbers,
// the worker) needs the slot table and must not import figures/: a declaration below both is read by
// lib/slots.ts through import.meta.glob and imported by the figure for its document type, so adding
// an experiment adds one file and no line to any list (no table handed in at start-up, which the
// worker and the scripts would each have to be given). A figure names its slot (FigureDef.slot).
//
// Adding a figure: its folder figN/ (FigureN.svelte, transform.ts, downloads.ts, index.ts with its
// FigureDef), one entry here, its slot in content/skeleton.ts, its strings in content/zh.ts and
// content/en.ts (README.md, "Adding a figure"); for an experiment figure, its experiments/<name>.ts
// too ("Adding an experiment").
import type { Article, FigureId, FigureText } from '../content/types';
import { figureText, tpl } from '../lib/text';
import type { Defaults, LinkSpec, ParamGroup } from '../lib/permalink';
import { EXPERIMENT_SLOTS, type ExperimentSlot, type Results, type SlotName } from '../lib/result-slots.svelte';
import type { FigureDef } from './types';
import { fig1 } from './fig1';
import { fig2 } from './fig2';
import { fig3 } from './fig3';
import { fig4 } from './fig4';
import { fig5 } from './fig5';
import { fig6 } from './fig6';
import { fig7 } from './fig7';
import { fig8 } from './fig8';
import { fig9 } from './fig9';
import { fig10 } from './fig10';
import { fig11 } from './fig11';
import { fig13 } from './fig13';
import { fig14 } from './fig14';
import { fig15 } from './fig15';

/** A figure of any view, document and settings types (each figure has its own). */
export type AnyFigure = FigureDef<any, any, any>;

// Page order (tests/unit/content.test.ts checks both languages against it). Each test of an
// inference sits beside the paragraph whose claim it tests, so its id (fixed by links already
// shared) no longer says where it is; the number the page shows comes from this order.
export const FIGURES: readonly AnyFigure[] = [fig1, fig2, fig3, fig6, fig11, fig7, fig10, fig5, fig4, fig8, fig9, fig13, fig14, fig15];

export const FIGURE_IDS: readonly FigureId[] = FIGURES.map((f) => f.id);

/** Add a figure at the end of the page (a test's own figure; the page's are listed above). */
export function registerFigure(f: AnyFigure) {
  (FIGURES as AnyFigure[]).push(f);
  (FIGURE_IDS as FigureId[]).push(f.id);
}

export { EXPERIMENT_SLOTS };

/** The experiment slots a figure may draw: its slot and every other slot of the same experiment
 *  (a view that toggles between documents: FigureDef.slotOf). */
export function experimentSlotsOf(f: AnyFigure): ExperimentSlot[] {
  const e = f.slot && EXPERIMENT_SLOTS[f.slot as ExperimentSlot]?.experiment;
  return e ? (Object.keys(EXPERIMENT_SLOTS) as ExperimentSlot[]).filter((k) => EXPERIMENT_SLOTS[k].experiment === e) : [];
}

export const figureById = (id: string): AnyFigure | undefined => FIGURES.find((f) => f.id === id);

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The number the page shows for a figure ("Figure {n}"): its place in page order among the
 * figures of its series, 1, 2, … for the article's own and A, B, … for the page's tests of the
 * article's inferences. Undefined for an id that is not registered.
 */
export function figureNumber(id: string): string | undefined {
  const f = figureById(id);
  if (!f) return undefined;
  const i = FIGURES.filter((g) => g.series === f.series).indexOf(f);
  return f.series === 'article' ? String(i + 1) : LETTERS[i];
}

/** "Figure 3", "图 C": the label the page shows before a figure's title and in references. */
export const figureLabel = (id: string, t: (key: string) => string): string => tpl(t('figureLabel'), { n: figureNumber(id) ?? id });

/** The label of a registered figure, undefined for any other id (what the inline renderer's
 *  {{#figN}} references show, or mark as unknown). */
export const figureRefLabel = (id: string, t: (key: string) => string): string | undefined => (figureById(id) ? figureLabel(id, t) : undefined);

/** A figure's strings in `article`, with the placeholders it fills from the engine's bounds
 *  (FigureDef.stringVars) already in. */
export function figureStrings(article: Pick<Article, 'figures'> | null, id: FigureId): FigureText {
  const text = figureText(article, id);
  for (const [key, v] of Object.entries(figureById(id)?.stringVars ?? {})) if (text[key] != null) text[key] = tpl(text[key], v);
  return text;
}

/** Every key of a figure's strings: its title, its caption (inline mini-language), and those it declares. */
export const stringKeysOf = (f: AnyFigure): string[] => ['title', 'caption', ...f.strings];

/** The live-run settings group of a slot (declared by the figure that edits them). */
export const runParamsOf = (slot: SlotName | null) => (slot ? FIGURES.find((f) => f.run?.key === slot)?.run : undefined);

/**
 * The permalink's groups: every figure's view, then its run settings, in registry order; an embed
 * of one figure carries its view and the run settings of the slot it draws.
 */
export const LINKS: LinkSpec = {
  figures: FIGURE_IDS,
  groups(only?: string): readonly ParamGroup[] {
    if (only == null) return FIGURES.flatMap((f) => (f.run ? [f.view, f.run] : [f.view]));
    const f = figureById(only);
    const run = runParamsOf(f?.slot ?? null);
    return f ? (run ? [f.view, run] : [f.view]) : [];
  },
};

/** Each figure's initial view state, by figure id. */
export const initialViews = (): Record<string, object> => Object.fromEntries(FIGURES.map((f) => [f.id, structuredClone(f.view.initial)]));

/** What a link's run settings `s` for figure `f` ask of the page, once the precomputed results and
 *  the stored runs are in (`d`: the settings the slot draws when it has no run):
 *  - 'drawn': the figure already draws a result of those settings;
 *  - 'show': an earlier complete run of them is in the run list: draw it alone (shown again if it
 *    was hidden) instead of computing it again, so reloading a page whose address names a run, or
 *    opening the same link twice, never adds the same run twice;
 *  - 'start': run them (a short run starts, a longer one is offered: LINK_BUDGET_MS). */
export type LinkRun = { kind: 'drawn' } | { kind: 'show'; id: string } | { kind: 'start' };
export function linkRunAction(f: AnyFigure, s: object, results: Pick<Results, 'slot' | 'runs'>, d: object): LinkRun {
  if (!f.run || !f.slot) return { kind: 'drawn' };
  if (f.run.same(s, f.run.of(results.slot(f.slot).data?.config) ?? d)) return { kind: 'drawn' };
  const earlier = results.runs
    .of(f.slot)
    .filter((e) => e.status === 'done' && e.doc != null)
    .reverse()
    .find((e) => {
      const had = f.run!.of((e.doc as { config?: object }).config);
      return had != null && f.run!.same(s, had);
    });
  return earlier ? { kind: 'show', id: earlier.id } : { kind: 'start' };
}

/** What a link's settings are compared with: the initial views, and the run settings of the
 *  precomputed results (the fallbacks until those have loaded). */
export function linkDefaults(results?: Pick<Results, 'slot'>): Defaults {
  const d: Defaults = {};
  for (const f of FIGURES) {
    d[f.view.key] = f.view.initial;
    if (f.run && f.slot) d[f.run.key] = f.run.of(results?.slot(f.slot).precomputed?.config) ?? f.run.fallback;
  }
  return d;
}
