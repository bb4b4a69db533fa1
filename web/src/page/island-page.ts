// page/island-page.ts — what a figure island (page/FigureIsland.svelte) reads of the page it is in:
// the results and their runs, the figures' view state, the strings and the inline renderer, and
// what its Share menu does, and the slots' live-run forms (lib/lab.svelte.ts Lab). Two pages provide it: the live page (live-page.svelte.ts), and the
// page as the build writes it (asBuilt below: the precomputed documents, the initial views, the
// reference's numbers, a Share menu that stays closed), which the prerender renders each island
// from (prerender/render.ts) so that the live page can hydrate it where it stands (page/boot.ts).
// And which slots' stored runs the live page holds back until a figure drawing them is live
// (heldSlots), so that such a figure can be hydrated too and draw the runs in a task of its own.
// Leaves out: the page's own chrome (toolbar, citation: their props are plain).
import type { Article, FigureId, FigureText, Lang } from '../content/types';
import { FIGURES, figureLabel, figureRefLabel, figureStrings, initialViews } from '../figures/registry';
import { tableOf } from '../lib/settings';
import type { AnyFigure } from '../figures/registry';
import type { ExportKind } from '../lib/export';
import type { LinkIssue, LinkState } from '../lib/permalink';
import { renderInline } from '../lib/inline';
import { Lab } from '../lib/lab.svelte';
import { Results, SLOT_NAMES, type SlotName } from '../lib/result-slots.svelte';
import { LiveRuns } from '../lib/runs/live-runs.svelte';
import { uiString } from '../lib/text';

export interface IslandPage {
  readonly results: Results;
  /** the slots' live-run forms over `results` (the figures' settings, getLab) */
  readonly lab: Lab;
  /** each figure's view state, by figure id (bindable) */
  views: Record<string, object>;
  t(key: string): string;
  /** the inline renderer of a figure's strings */
  readonly inline: (s: string) => string;
  /** the numbers the figures' strings quote */
  readonly proseNumbers: Record<string, string>;
  /** a figure's strings as the live page shows them */
  ftext(id: FigureId): FigureText;
  /** a figure's strings as the build wrote them (builtText) */
  builtText(id: FigureId): FigureText;
  figLabel(id: FigureId): string;
  linkTo(hash?: string): string;
  notRunNote(f: AnyFigure): string;
  embedCode(id: FigureId): string;
  exportFigure(id: FigureId, kind: ExportKind): Promise<void>;
}

/**
 * A figure's strings as the build writes them: with the caption written for a page that cannot run
 * its controls where the figure has one (`captionStatic`: Figure 1's walk and Final LN need
 * JavaScript). A figure island is hydrated with these, then given the live ones.
 */
export function builtText(article: Pick<Article, 'figures'> | null, id: FigureId): FigureText {
  const s = figureStrings(article, id) as Record<string, string>;
  return (s.captionStatic ? { ...s, caption: s.captionStatic } : s) as FigureText;
}

/** The page as the build writes it, for `article` drawn from the precomputed documents `docs`:
 *  what each figure island is rendered from on the server. Its Share menu stays closed. */
export function asBuilt(article: Article, docs: Partial<Record<SlotName, unknown>>): IslandPage & { lang: Lang } {
  const lang = article.lang;
  const results = new Results(new LiveRuns(SLOT_NAMES, null));
  // the run lists as the live page shows them before any run: kept in this browser, none yet
  results.runs.persistent = true;
  results.usePrecomputed(docs);
  // the figures' settings forms, as they open (drawn closed, as on the live page)
  const lab = new Lab(results);
  const t = (key: string) => uiString(lang, key);
  const proseNumbers = results.proseNumbers(lang);
  const nothing = () => '';
  return {
    lang,
    results,
    lab,
    views: initialViews(),
    t,
    inline: (s: string) => renderInline(s, { bindings: proseNumbers, figureLabel: (id) => figureRefLabel(id, t) }),
    proseNumbers,
    ftext: (id) => builtText(article, id),
    builtText: (id) => builtText(article, id),
    figLabel: (id) => figureLabel(id, t),
    linkTo: nothing,
    notRunNote: nothing,
    embedCode: nothing,
    exportFigure: async () => {},
  };
}

/** The slots figure `id` draws: its slot, and those whose form it shows (lib/settings.ts Table.figure). */
export const slotsOf = (id: FigureId, figures: readonly AnyFigure[] = FIGURES): SlotName[] =>
  SLOT_NAMES.filter((n) => figures.find((f) => f.id === id)?.slot === n || tableOf(n).figure === id);

/**
 * The slots whose stored runs the live page holds back until a figure drawing them is live
 * (LiveRuns hold, showRuns): so that such a figure is first made live as the build drew it (its
 * island hydrated: page/boot.ts) and draws the reader's runs in a task of its own (a stored run may
 * hold 10⁶ losses). Until then every island reads the slot as before its stored runs were read:
 * the reference, its numbers in the captions, no run listed. Not held: a slot whose run settings
 * the link names (Lab.applyLink looks for a stored run of them), and a slot a figure may draw by
 * its view (slotOf: another view of it would draw the slot without its runs). Pure.
 */
/** The groups a link names, by key: those it sets (their parts), and those it names by a refused
 *  parameter only (Lab.applyLink fills their forms all the same: no stored run is held over them). */
export const linkGroups = (l: { state: LinkState; issues: readonly LinkIssue[] }): Record<string, object> => ({
  ...Object.fromEntries(l.issues.flatMap((i) => (i.group == null ? [] : [[i.group, {}]]))),
  ...l.state.parts,
});

export function heldSlots(parts: Record<string, unknown>, figures: readonly AnyFigure[] = FIGURES): SlotName[] {
  return SLOT_NAMES.filter((n) => {
    const drawers = figures.filter((f) => f.slot === n || tableOf(n).figure === f.id);
    return !parts[n] && drawers.length > 0 && drawers.every((f) => !f.slotOf);
  });
}
