// runs/entry.ts — one live run as the run list keeps it, and the run list's file format. Pure.
//
// Every live run of a figure (a probe, a grid, an experiment) becomes a RunEntry: its settings
// (the engine config it ran), which engine ran it, when, for how long, how it ended, and the
// document it produced — complete, or what was computed before it was cancelled or failed
// ('partial'). Entries live in IndexedDB (store.ts) and move between browsers as a JSON file
// (RUNS_FORMAT, below; docs/sharing.md). What comes from storage or a file is checked here before
// any figure sees it: a malformed entry is reported and skipped, never drawn.
import { withAddedKeys } from '../../engine/documents';
import type { SlotName } from '../slots';

/** A message of the run list: a key of the page's strings (content/ui-strings.ts, "runs.msg.*")
 *  and its placeholders, so it reads in the page's language. */
export interface RunsMessage {
  key: string;
  vars?: Record<string, string | number>;
}

/** How a run ended; 'running' only in memory (a run interrupted by a reload is stored 'partial'). */
export type EntryStatus = 'running' | 'done' | 'partial' | 'error';
export const ENTRY_STATUSES: readonly EntryStatus[] = ['running', 'done', 'partial', 'error'];

/** The engine that computed a run (client.ts EngineReady, as far as provenance needs it). */
export interface EntryEngine {
  backend?: string;
  flavour?: string;
  threads?: number;
  version?: string;
  [k: string]: unknown;
}

export interface RunEntry {
  /** unique within the list ("r" + creation time + random) */
  id: string;
  /** the result slot the run belongs to (lib/result-slots.svelte.ts) */
  slot: SlotName;
  /** the reader's name for it ("#3" until renamed) */
  name: string;
  /** its number in its slot's list (1, 2, …): given when it begins (or is imported) and kept, so
   *  that the run list and Figure 4's end labels name it the same way after a reload or a removal;
   *  0 only between reading an entry stored before numbers existed and numbering it */
  n: number;
  /** ISO times */
  createdAt: string;
  finishedAt: string | null;
  /** the engine config it ran (the re-run starts this) */
  config: Record<string, unknown>;
  status: EntryStatus;
  /** the engine's message of a failed run */
  message: string;
  /** 0…1 while running; 1 when done */
  fraction: number;
  elapsedMs: number;
  engine: EntryEngine | null;
  /** the document it produced so far; null when nothing was computed */
  doc: unknown;
  /** not drawn (still listed) */
  hidden: boolean;
  /** where an imported run came from: the file and when it was read */
  imported: { file: string; at: string } | null;
}

export const RUNS_FORMAT = 'lnx-runs';
export const RUNS_VERSION = 1;
/** The most runs one import takes: a file the page exports holds far fewer (a grid's entry is tens
 *  of kB, and a file over 50 MB is refused before it is read); a file of a million tiny entries
 *  gets a message instead of a million saves and list rows. */
export const MAX_IMPORT_RUNS = 2000;

/** The exported file: the entries and where they come from. */
export interface RunsFile {
  format: typeof RUNS_FORMAT;
  version: typeof RUNS_VERSION;
  exported: string;
  /** the page that wrote it (its URL and engine version) */
  generator: { page: string; version: string };
  runs: RunEntry[];
}

/** A fresh id. `now` and `rand` are parameters so tests can pin them. */
export const newId = (now = Date.now(), rand = Math.random()): string =>
  `r${now.toString(36)}${Math.floor(rand * 36 ** 4)
    .toString(36)
    .padStart(4, '0')}`;

/** The next run number of a slot: one more than the largest in use. */
export const nextNumber = (entries: readonly Pick<RunEntry, 'n'>[]): number => entries.reduce((m, e) => Math.max(m, e.n), 0) + 1;

/** A name the list gave a run ("#3"), not one a reader gave it; its number is the first group. */
export const LIST_NAME = /^#(\d+)$/;

/** "#N": one more than the largest N already used in the slot's names (and than their count). */
export function nextName(names: readonly string[]): string {
  let n = names.length;
  for (const s of names) {
    const m = LIST_NAME.exec(s);
    if (m) n = Math.max(n, Number(m[1]));
  }
  return `#${n + 1}`;
}

export const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The most numbers, strings and other values one run's document may hold: far more than any
 *  run the engine makes for the settings a page accepts (a full grid is ~40,000), and small enough
 *  to draw and store without freezing the page. */
export const MAX_DOC_VALUES = 2_000_000;

/** Only JSON values (finite numbers: a file's 1e999 reads as Infinity), nested at most `depth`
 *  deep, at most `budget.left` of them in all (it counts down); why not, or null. Never recurses
 *  deeper than `depth`, so a value nested 100,000 deep is refused, not a stack overflow. */
export function jsonProblem(x: unknown, depth: number, budget = { left: MAX_DOC_VALUES }): string | null {
  if (--budget.left < 0) return `it holds more than ${MAX_DOC_VALUES.toLocaleString('en')} values`;
  if (typeof x === 'number') return Number.isFinite(x) ? null : 'it holds a number that is not finite';
  if (x === null || typeof x === 'string' || typeof x === 'boolean') return null;
  if (depth <= 0) return 'it is nested too deeply';
  if (Array.isArray(x)) {
    for (const v of x) {
      const p = jsonProblem(v, depth - 1, budget);
      if (p) return p;
    }
    return null;
  }
  if (isPlainObject(x)) {
    for (const v of Object.values(x)) {
      const p = jsonProblem(v, depth - 1, budget);
      if (p) return p;
    }
    return null;
  }
  return `it holds a ${typeof x}`;
}

/** How deep an entry's settings and engine description may nest: a setting is a number, a string or
 *  a list of them (depth 2); one level to spare. */
const CONFIG_DEPTH = 3;

/** Why a value is not a valid entry (in the reader's terms), or null when it is. `slots` are the
 *  slot names this page knows; `checkDoc` checks the document's shape for its slot. */
export function entryProblem(x: unknown, slots: readonly string[], checkDoc: (slot: SlotName, doc: unknown) => string | null): string | null {
  if (!isPlainObject(x)) return 'it is not an object';
  if (typeof x.id !== 'string' || !x.id) return 'it has no id';
  if (typeof x.slot !== 'string' || !slots.includes(x.slot)) return `its figure data "${String(x.slot)}" is not one this page draws`;
  if (typeof x.name !== 'string') return 'it has no name';
  if (x.n != null && !(Number.isInteger(x.n) && (x.n as number) >= 0 && (x.n as number) < 1e9)) return 'its number is not a whole number';
  if (typeof x.createdAt !== 'string' || Number.isNaN(Date.parse(x.createdAt))) return 'its creation date is not a date';
  if (x.finishedAt != null && (typeof x.finishedAt !== 'string' || Number.isNaN(Date.parse(x.finishedAt)))) return 'its end date is not a date';
  if (!isPlainObject(x.config)) return 'its settings are missing';
  const c = jsonProblem(x.config, CONFIG_DEPTH, { left: 10_000 });
  if (c) return `its settings are malformed (${c})`;
  if (!ENTRY_STATUSES.includes(x.status as EntryStatus)) return `its status "${String(x.status)}" is unknown`;
  if (typeof x.elapsedMs !== 'number' || !(x.elapsedMs >= 0) || !Number.isFinite(x.elapsedMs)) return 'its run time is not a number';
  if (x.engine != null && (!isPlainObject(x.engine) || jsonProblem(x.engine, CONFIG_DEPTH, { left: 10_000 }))) return 'its engine description is malformed';
  if (typeof x.message === 'string' && x.message.length > 10_000) return 'its message is too long';
  if (x.doc != null) {
    const p = checkDoc(x.slot as SlotName, x.doc);
    if (p) return `its results are malformed (${p})`;
  } else if (x.status === 'done') return 'it is marked complete but has no results';
  return null;
}

/** A checked value as an entry, with defaults for the optional fields. A 'running' entry read
 *  back (the page was closed mid-run) is what it had computed: 'partial'. */
export function toEntry(x: Record<string, unknown>): RunEntry {
  const status = x.status === 'running' ? 'partial' : (x.status as EntryStatus);
  return {
    id: x.id as string,
    slot: x.slot as SlotName,
    name: (x.name as string).slice(0, 200),
    n: typeof x.n === 'number' ? x.n : 0,
    createdAt: x.createdAt as string,
    finishedAt: (x.finishedAt as string | null | undefined) ?? null,
    config: x.config as Record<string, unknown>,
    status,
    message: typeof x.message === 'string' ? x.message : '',
    fraction: typeof x.fraction === 'number' && x.fraction >= 0 && x.fraction <= 1 ? x.fraction : status === 'done' ? 1 : 0,
    elapsedMs: x.elapsedMs as number,
    engine: (x.engine as EntryEngine | null | undefined) ?? null,
    doc: x.doc ?? null,
    hidden: x.hidden === true,
    imported: isPlainObject(x.imported) && typeof x.imported.file === 'string' ? { file: x.imported.file, at: String(x.imported.at ?? '') } : null,
  };
}

/** The file that exports `runs`. */
export const runsFile = (runs: readonly RunEntry[], generator: RunsFile['generator'], now = new Date()): RunsFile => ({
  format: RUNS_FORMAT,
  version: RUNS_VERSION,
  exported: now.toISOString(),
  generator,
  runs: runs.filter((r) => r.status !== 'running').map((r) => ({ ...r })),
});

export interface ImportResult {
  /** the runs read, with new ids (so importing a file twice duplicates, never overwrites) and marked imported */
  runs: RunEntry[];
  /** one line per skipped run, "3 (“name”): why" (the why in English: it names fields of the file) */
  skipped: string[];
  /** the whole file was unreadable: why (then runs and skipped are empty) */
  error: RunsMessage | null;
}

/** The import of a file the browser could not read (its text, or the worker reading it, failed). */
export const unreadableFile = (fileName: string, e: unknown): ImportResult => ({
  runs: [],
  skipped: [],
  error: { key: 'runs.msg.unreadableFile', vars: { file: fileName, why: e instanceof Error ? e.message : String(e) } },
});

/** Read an exported file's text. Never throws: what cannot be read is said in `error` / `skipped`. */
export function parseRunsFile(
  text: string,
  fileName: string,
  slots: readonly string[],
  checkDoc: (slot: SlotName, doc: unknown) => string | null,
  ids: () => string = () => newId(),
  now = new Date(),
): ImportResult {
  const fail = (key: string, vars: Record<string, string | number> = {}): ImportResult => ({
    runs: [],
    skipped: [],
    error: { key, vars: { file: fileName, ...vars } },
  });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return fail('runs.msg.notJson');
  }
  if (!isPlainObject(data) || data.format !== RUNS_FORMAT) return fail('runs.msg.notRuns', { format: RUNS_FORMAT });
  if (data.version !== RUNS_VERSION) return fail('runs.msg.version', { version: String(data.version), ours: RUNS_VERSION });
  if (!Array.isArray(data.runs)) return fail('runs.msg.noList');
  if (data.runs.length > MAX_IMPORT_RUNS) return fail('runs.msg.tooMany', { n: data.runs.length, max: MAX_IMPORT_RUNS });
  const runs: RunEntry[] = [];
  const skipped: string[] = [];
  data.runs.forEach((x, i) => {
    const problem = entryProblem(x, slots, checkDoc);
    const label = isPlainObject(x) && typeof x.name === 'string' ? `${i + 1} (“${x.name.slice(0, 60)}”)` : `${i + 1}`;
    if (problem) skipped.push(`${label}: ${problem}.`);
    else runs.push({ ...toEntry(x as Record<string, unknown>), id: ids(), imported: { file: fileName, at: now.toISOString() } });
  });
  return { runs, skipped, error: null };
}

/** Which of a slot's entries are drawn: the isolated one alone, else every shown entry with a
 *  document, oldest first (the newest is drawn on top and is the figure's current result). */
export function drawnEntries(entries: readonly RunEntry[], isolated: string | null): RunEntry[] {
  const withDoc = entries.filter((e) => e.doc != null);
  if (isolated) {
    const e = withDoc.find((x) => x.id === isolated);
    if (e) return [e];
  }
  return withDoc.filter((e) => !e.hidden);
}

/** A config value as text: a list's entries joined by `sep`, an object as JSON. */
export const show = (v: unknown, sep = ','): string =>
  Array.isArray(v) ? v.map((x) => show(x, sep)).join(sep) : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);

/** An entry's settings that differ from the reference's config, as "key value" (keys of either
 *  side, sorted; a key the reference lacks counts as different, except one the engine gained later,
 *  which reads as its default: documents.ts ADDED_CONFIG_KEYS). Empty: the reference's settings. */
export function settingsDiff(config: Record<string, unknown>, reference: Record<string, unknown> | null | undefined): string[] {
  return changedSettings(config, reference).map(({ field, value }) => `${field} ${show(value)}`);
}

/** The same, as engine fields and the entry's values (lib/settings.ts settingsText words them as
 *  the slot's form does). */
export function changedSettings(config: Record<string, unknown>, reference: Record<string, unknown> | null | undefined): { field: string; value: unknown }[] {
  const ref = withAddedKeys(reference ?? {});
  const c = withAddedKeys(config);
  return Object.keys(c)
    .sort()
    .filter((k) => show(c[k]) !== show(ref[k]))
    .map((field) => ({ field, value: c[field] }));
}
