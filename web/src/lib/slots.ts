// slots.ts — the result slots as a table: their names, the experiment each experiment slot draws
// (its precomputed file, the config of a recompute, its small setting, the fields a reader may set,
// its verdict rule: declared in web/src/experiments/, one file per experiment) and where each
// slot's precomputed document is. Pure
// data: lib/runs/, the prose numbers, the worker that checks imported run files and the scripts read
// it without the live results (result-slots.svelte.ts), which re-exports it.
import type { ExperimentDecl, ExperimentSlots } from '../experiments/types';

/** The experiment slots, by name (each slot's document type: ExperimentSlots). */
export type ExperimentSlot = keyof ExperimentSlots;

/** The experiment documents the figures draw, by slot name (registerSlots). */
export const EXPERIMENT_SLOTS = {} as Record<ExperimentSlot, ExperimentDecl>;

/** The result slots, by name (a figure says which one it draws: figures/types.ts). */
export type SlotName = 'probe' | 'grid' | ExperimentSlot;

/** Every slot's name: probe, grid, then the experiments' slots in the order they were registered. */
export const SLOT_NAMES: readonly SlotName[] = ['probe', 'grid'];

/** Add experiment slots to EXPERIMENT_SLOTS and SLOT_NAMES (a test may add its own). */
export function registerSlots(decls: Partial<Record<ExperimentSlot, ExperimentDecl>>) {
  Object.assign(EXPERIMENT_SLOTS, decls);
  (SLOT_NAMES as SlotName[]).push(...(Object.keys(decls) as ExperimentSlot[]));
}
// Every experiments/<name>.ts's slots (its default export), in the order of their files: adding a
// file there adds its slots here and to everything read from them.
for (const decls of Object.values(
  import.meta.glob<object>(['../experiments/*.ts', '!../experiments/types.ts', '!../experiments/*.d.ts'], { eager: true, import: 'default' }),
))
  registerSlots(decls);

/** Where a slot's precomputed document is, under the site's base (public/ in the repository). */
export const precomputedPath = (name: SlotName): string =>
  name === 'probe' || name === 'grid' ? `data/${name}.json` : `data/exp/${EXPERIMENT_SLOTS[name].file}.json`;

/** A slot's `summarize` (its precomputed file is a summary: ExperimentDecl.summarize), or null. */
export const summarizeOf = (name: SlotName): ((doc: never) => object) | null =>
  name === 'probe' || name === 'grid' ? null : (EXPERIMENT_SLOTS[name].summarize ?? null);

/** Where the whole document of a slot whose precomputed file is a summary is (its downloads read
 *  it); null for a slot that loads the whole one. */
export const fullPath = (name: SlotName): string | null => (summarizeOf(name) ? `data/exp/${EXPERIMENT_SLOTS[name as ExperimentSlot].experiment}.json` : null);

/** The verdict of `slot`'s claim on `doc` by its declaration's rule, with the document of its
 *  `verdictWith` slot beside it (`withDoc`, null when there is none): the one way the prose, the
 *  run list and the captions judge a document. */
export const judge = (slot: ExperimentSlot, doc: unknown, withDoc: unknown = null): { verdict: string; facts?: object } | null => {
  const decl = EXPERIMENT_SLOTS[slot];
  if (!decl?.verdict) return null;
  return decl.verdictWith ? decl.verdict(doc as never, (withDoc ?? null) as never) : decl.verdict(doc as never);
};
