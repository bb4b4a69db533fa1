// registry.ts — every figure of the page, in page order, and what the page derives from the list:
// the figure ids, the permalink's parameter groups and its defaults, the figures' numbers. The page (page/),
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
// A slot's live-run settings are its field table (lib/settings.ts), which names the figure that
// shows its form: their URL group follows that figure's view in links (LINKS).
//
// Adding a figure: its folder figN/ (FigureN.svelte, transform.ts, downloads.ts, index.ts with its
// FigureDef), one entry here, its slot in content/skeleton.ts, its strings in content/zh.ts and
// content/en.ts (README.md, "Adding a figure"); for an experiment figure, its experiments/<name>.ts
// too ("Adding an experiment").
import type { Article, FigureId, FigureText } from '../content/types';
import { figureText, tpl } from '../lib/text';
import type { Defaults, LinkSpec, ParamGroup } from '../lib/permalink';
import { EXPERIMENT_SLOTS, SLOT_NAMES, type ExperimentSlot } from '../lib/slots';
import { paramGroup } from '../lib/fields';
import { tableOf } from '../lib/settings';
import { linkRunDefaults } from '../lib/lab.svelte';
import type { FigureDef } from './types';
import { fig1 } from './fig1';
import { fig2 } from './fig2';
import { fig3 } from './fig3';
import { fig4 } from './fig4';
import { fig5 } from './fig5';
import { fig6 } from './fig6';
import { fig7 } from './fig7';
import { fig17 } from './fig17';
import { fig19 } from './fig19';
import { fig8 } from './fig8';
import { fig9 } from './fig9';
import { fig10 } from './fig10';
import { fig11 } from './fig11';
import { fig12 } from './fig12';
import { fig13 } from './fig13';
import { fig14 } from './fig14';
import { fig15 } from './fig15';
import { fig16 } from './fig16';
import { fig18 } from './fig18';
import { fig20 } from './fig20';

/** A figure of any view, document and settings types (each figure has its own). */
export type AnyFigure = FigureDef<any, any>;

// Page order (tests/unit/content.test.ts checks both languages against it). Each test of an
// inference sits beside the paragraph whose claim it tests, so its id (fixed by links already
// shared) no longer says where it is; the number the page shows comes from this order.
export const FIGURES: readonly AnyFigure[] = [
  fig1,
  fig2,
  fig3,
  fig6,
  fig11,
  fig7,
  fig17,
  fig10,
  fig5,
  fig12,
  fig4,
  fig8,
  fig9,
  fig19,
  fig13,
  fig20,
  fig14,
  fig18,
  fig15,
  fig16,
];

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

/** A figure's strings in `article`. */
export const figureStrings = (article: Pick<Article, 'figures'> | null, id: FigureId): FigureText => figureText(article, id);

/** Every key of a figure's strings: its title, its caption (inline mini-language), and those it declares. */
export const stringKeysOf = (f: AnyFigure): string[] => ['title', 'caption', ...f.strings];

/** The slots a figure draws: its slot and every other slot of the same experiment. */
const slotsOf = (f: AnyFigure): string[] => (f.slot ? [f.slot, ...experimentSlotsOf(f)] : []);

/** The run settings groups (lib/fields.ts paramGroup) whose form figure `id` shows (lib/settings.ts
 *  Table.figure), in slot order. */
const runGroupsOf = (id: string): ParamGroup[] => SLOT_NAMES.filter((n) => tableOf(n).figure === id).map((n) => paramGroup(tableOf(n)) as ParamGroup);

/**
 * The permalink's groups: every figure's view, then the run settings its form sets, in registry
 * order; an embed of one figure carries its view and the run settings of the slots it draws.
 */
export const LINKS: LinkSpec = {
  figures: FIGURE_IDS,
  groups(only?: string): readonly ParamGroup[] {
    if (only == null) return FIGURES.flatMap((f) => [f.view, ...runGroupsOf(f.id)]);
    const f = figureById(only);
    if (!f) return [];
    const slots = slotsOf(f);
    return [f.view, ...FIGURES.flatMap((g) => runGroupsOf(g.id)).filter((g) => slots.includes(g.key))];
  },
};

/** Each figure's initial view state, by figure id. */
export const initialViews = (): Record<string, object> => Object.fromEntries(FIGURES.map((f) => [f.id, structuredClone(f.view.initial)]));

/** What a link's settings are compared with: the initial views, and each slot's form as it opens. */
export const linkDefaults = (): Defaults => ({ ...Object.fromEntries(FIGURES.map((f) => [f.view.key, f.view.initial])), ...linkRunDefaults() });
