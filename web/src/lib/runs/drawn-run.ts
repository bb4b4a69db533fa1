// runs/drawn-run.ts — which run a slot's figure draws on top, and what its caption, badge and
// legend say of it while it is not a complete run. Pure.
//
// The rule ("never a silently wrong figure"): at every moment the caption, the badge and the
// legend name the run that is drawn on top, in the state it is in. A figure that draws its slot's
// partial runs (Figure 4: every shown run with a document, lib/result-slots.svelte.ts Slot
// `partials`) draws the newest shown one on top, whatever its state: a run streaming its curves
// ('running'), one cancelled ('cancelled': it ended, with what it had computed), one whose page was
// closed while it ran ('interrupted': stored while running, never ended), one that failed with
// curves ('failed'). Every other figure draws complete runs only: its top is the newest complete
// one. A run that is not complete is named with the step it reached and the steps it was set to
// ("cancelled at step 137 of 1000"), or, for a document without steps, the share it computed.
import { tpl } from '../text';
import type { RunEntry } from './entry';
import type { SlotName } from '../slots';

/** What the drawn run is: complete, or drawn up to where it got. */
export type DrawnState = 'done' | 'running' | 'cancelled' | 'interrupted' | 'failed';
export const DRAWN_STATES: readonly DrawnState[] = ['done', 'running', 'cancelled', 'interrupted', 'failed'];

/** The run drawn on top: its entry, its state, and how far it got. */
export interface DrawnRun {
  entry: RunEntry;
  state: DrawnState;
  /** the last step its document holds, and the steps it was set to (null: a document without steps) */
  step: number | null;
  steps: number | null;
  /** the share of the run it computed, 0…100 */
  pct: number;
}

/** The entry drawn on top among `drawn` (the slot's shown entries with a document, oldest first:
 *  LiveRuns.drawn): the newest, or with `partials` false the newest complete one; null: none (the
 *  reference is drawn alone). */
export function topEntry(drawn: readonly RunEntry[], partials: boolean): RunEntry | null {
  for (let i = drawn.length - 1; i >= 0; i--) if (partials || drawn[i].status === 'done') return drawn[i];
  return null;
}

/** An entry's state as drawn: a stored 'partial' that ended (finishedAt) was cancelled; one that
 *  never ended was stored while it ran and its page went away. */
export function drawnState(e: Pick<RunEntry, 'status' | 'finishedAt'>): DrawnState {
  if (e.status === 'done') return 'done';
  if (e.status === 'running') return 'running';
  if (e.status === 'error') return 'failed';
  return e.finishedAt ? 'cancelled' : 'interrupted';
}

const positive = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);

/** How far a document of `slot` got: the grid's longest curve and its configured steps (its
 *  entry's config, else the engine's default `defaultSteps`); null for a document without steps. */
export function reachedSteps(
  slot: SlotName,
  doc: unknown,
  config: Record<string, unknown> | null,
  defaultSteps: number | null = null,
): { step: number; steps: number | null } | null {
  if (slot !== 'grid' || doc == null) return null;
  const g = doc as { runs?: { loss?: unknown[] }[]; config?: Record<string, unknown> };
  if (!Array.isArray(g.runs)) return null;
  const step = Math.max(0, ...g.runs.map((r) => (Array.isArray(r.loss) ? r.loss.length : 0)));
  return { step, steps: positive(g.config?.steps) ?? positive(config?.steps) ?? defaultSteps };
}

/** The run drawn on top of a slot's figure and its state (null: the reference alone). */
export function drawnRun(slot: SlotName, drawn: readonly RunEntry[], partials: boolean, defaultSteps: number | null = null): DrawnRun | null {
  const entry = topEntry(drawn, partials);
  return entry ? describeRun(slot, entry, defaultSteps) : null;
}

/** One drawn entry of `slot`, its state and how far it got (a legend names each drawn run so). */
export function describeRun(slot: SlotName, entry: RunEntry, defaultSteps: number | null = null): DrawnRun {
  const state = drawnState(entry);
  const reached = reachedSteps(slot, entry.doc, entry.config, defaultSteps);
  const pct = Math.round(100 * (state === 'done' ? 1 : Math.max(0, Math.min(1, entry.fraction || 0))));
  return { entry, state, step: reached?.step ?? null, steps: reached?.steps ?? null, pct };
}

/** Where a run that is not complete got: "step 137 of 1000" ("step 137" without its length), or
 *  "37% of the run" for a document without steps (page-chrome strings runs.at.*). */
export function reachedWords(d: Pick<DrawnRun, 'step' | 'steps' | 'pct'>, t: (k: string) => string): string {
  if (d.step == null) return tpl(t('runs.at.pct'), { pct: d.pct });
  return d.steps == null ? tpl(t('runs.at.stepOnly'), { step: d.step }) : tpl(t('runs.at.step'), { step: d.step, steps: d.steps });
}

/** The caption's and the badge's words for a drawn run that is not complete ('' when it is):
 *  "cancelled at step 137 of 1000, drawn up to there" (runs.state.*). */
export function stateWords(d: DrawnRun | null, t: (k: string) => string): string {
  if (!d || d.state === 'done') return '';
  return tpl(t(`runs.state.${d.state}`), { at: reachedWords(d, t) });
}

/** The legend's short words for such a run: "cancelled · step 137 of 1000" (runs.tag.*). */
export function stateTag(d: DrawnRun | null, t: (k: string) => string): string {
  if (!d || d.state === 'done') return '';
  return `${t(`runs.tag.${d.state}`)} · ${reachedWords(d, t)}`;
}

/** The badge's first words on such a run: "Computing in your browser" while it runs, "Computed in
 *  your browser" once it stopped (page-chrome strings live.running, live). */
export const badgeLead = (d: Pick<DrawnRun, 'state'>, t: (k: string) => string): string => t(d.state === 'running' ? 'live.running' : 'live');
