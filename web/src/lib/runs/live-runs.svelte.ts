// runs/live-runs.svelte.ts — the reader's live runs, every figure's, as one reactive list kept in
// IndexedDB (store.ts). Slots (lib/result-slots.svelte.ts) add an entry when a run starts and
// finish it when it ends; the run list beside each figure (the RunList component,
// components/common/RunList.svelte) shows, hides, renames, isolates, removes, exports and imports
// them. Nothing here draws: figures read drawnEntries().
//
// Writes: an entry is stored when it starts (so a closed page leaves what it had, read back as
// 'partial'), while a streaming run grows (at most every SAVE_EVERY_MS), and when it ends. A
// failed write keeps the entry in memory and says why in `message`.
// Held slots: the stored entries of a slot named in `hold` are read with the others but kept back
// (as if not read yet) until `release(slot)`, so that a figure drawing a long stored run can first
// be made live as the build drew it and draw the run in a task of its own (page/boot.ts).
import { docProblem } from './doc-check';
import {
  drawnEntries,
  entryProblem,
  newId,
  LIST_NAME,
  nextName,
  nextNumber,
  parseRunsFile,
  runsFile,
  toEntry,
  unreadableFile,
  type ImportResult,
  type RunEntry,
  type RunsFile,
} from './entry';
import { readRunsFile } from './import-file';
import { readHere, type StoredRead } from './stored-check';
import { outOfRange } from './config-check';
import { memoryStore, openRunStore, storageMessage, type RunStore, type RunsMessage } from './store';
import type { SlotName } from '../slots';

/** An import's message names at most this many skipped runs, then says how many more. */
export const MAX_SKIPPED_LINES = 10;

export const SAVE_EVERY_MS = 5000;

/** What a tab tells the other tabs of its store (BroadcastChannel). */
type TabMessage = { type: 'put'; entry: RunEntry } | { type: 'delete'; id: string };

export class LiveRuns {
  /** every slot's entries, oldest first */
  entries = $state.raw<RunEntry[]>([]);
  /** per slot, the entry drawn alone (null: every shown entry) */
  isolated = $state<Partial<Record<SlotName, string | null>>>({});
  /** the last storage or import message, per slot ('' when none); `persistent` false: runs last only this visit */
  message = $state<Partial<Record<SlotName, RunsMessage[]>>>({});
  persistent = $state(false);
  /** the entry removed last, for Undo (null once undone or replaced) */
  lastRemoved = $state.raw<RunEntry | null>(null);
  /** resolves once the stored entries have been read (or found unavailable) */
  readonly ready: Promise<void>;
  private store: RunStore = memoryStore();
  private lastSave = new Map<string, number>();
  /** the other tabs of this store (null: none, or no BroadcastChannel) */
  private channel: BroadcastChannel | null = null;
  /** the entries this tab began (it alone renames them when another tab's run took the name) */
  private own = new Set<string>();
  /** the time of the last entry begun here: entries are read back ordered by their creation time,
   *  so two begun within one millisecond must not share it (the store returns ties in id order) */
  private lastBegun = -Infinity;

  /** `slots`: the slot names this page draws; `open`: the store (null: keep runs in memory only, as an embed does) */
  /** the stored entries of the held slots, kept back until `release` */
  private heldBack = new Map<SlotName, RunEntry[]>();

  /** `slots`: the slot names this page draws; `open`: the store (null: keep runs in memory only, as
   *  an embed does); `hold`: slots whose stored entries wait for `release` */
  constructor(
    readonly slots: readonly SlotName[],
    open: (() => Promise<RunStore>) | null = () => openRunStore(),
    hold: readonly SlotName[] = [],
  ) {
    for (const s of hold) this.heldBack.set(s, []);
    this.ready = open ? this.load(open) : Promise.resolve();
  }

  /** Whether `slot`'s stored entries are kept back (until `release(slot)`); false once released. */
  holds(slot: SlotName): boolean {
    return this.heldBack.has(slot);
  }

  /** Whether `slot` is held with stored entries waiting: releasing it changes what is drawn. */
  holdsEntries(slot: SlotName): boolean {
    return (this.heldBack.get(slot)?.length ?? 0) > 0;
  }

  /** The documents of `slot`'s stored entries kept back (none once released): what releasing it
   *  will draw, for work done on them before (page/live-page.svelte.ts prepareRuns). */
  heldDocs(slot: SlotName): unknown[] {
    return (this.heldBack.get(slot) ?? []).flatMap((e) => (e.doc == null ? [] : [e.doc]));
  }

  /** Show `slot`'s stored entries (from now on it is not held): they join the list as the stored
   *  ones do when the store is read (load), entries made meanwhile after them. */
  release(slot: SlotName) {
    const back = this.heldBack.get(slot);
    if (!back) return;
    this.heldBack.delete(slot);
    // (one another tab rewrote meanwhile is in the list already, in its newer state)
    const fresh = back.filter((e) => !this.get(e.id));
    if (fresh.length) this.entries = this.merge(fresh);
  }

  private async load(open: () => Promise<RunStore>) {
    let stored: StoredRead;
    try {
      const s = await open();
      // read and checked off the main thread where the store can (a stored run may hold 10⁶
      // values: stored-check.ts), else here
      stored = (await s.checked?.(this.slots)) ?? (await readHere(() => s.all(), this.slots));
      this.store = s;
      this.persistent = true;
      if (s.channel && typeof BroadcastChannel !== 'undefined') {
        this.channel = new BroadcastChannel(s.channel);
        this.channel.onmessage = (ev) => this.fromOtherTab(ev.data);
      }
    } catch (e) {
      this.say(null, storageMessage(e, 'open'));
      return;
    }
    let good: RunEntry[] = [];
    let bad = 0;
    stored.values.forEach((x, i) => {
      if (stored.problems[i] || x == null) bad++;
      else good.push(toEntry(x as Record<string, unknown>));
    });
    // a run of this browser's the page was closed on before it computed anything holds nothing to
    // show: gone, not listed as "partial (0%)" (an imported one stays as it was imported)
    const empty = (x: RunEntry) => x.status === 'partial' && x.doc == null && !x.imported;
    for (const e of good.filter(empty)) void this.store.delete(e.id).catch(() => {});
    good = good.filter((x) => !empty(x));
    good.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    for (const e of good.filter((x) => this.heldBack.has(x.slot))) this.heldBack.get(e.slot)!.push(e);
    this.entries = this.merge(good.filter((x) => !this.heldBack.has(x.slot)));
    if (bad) this.say(null, { key: 'runs.msg.unreadable', vars: { n: bad } });
  }

  /** The list with the stored entries `good` (read from the store, oldest first) in it: entries
   *  made before they arrived (a run started at once) stay after them; one named without knowing
   *  the stored names ("#1" again) takes the next free name of its slot. */
  private merge(good: RunEntry[]): RunEntry[] {
    const ids = new Set(good.map((e) => e.id));
    const merged = [...good];
    for (const e of this.entries.filter((x) => !ids.has(x.id))) {
      const same = merged.filter((x) => x.slot === e.slot);
      const names = same.map((x) => x.name);
      let renamed = names.includes(e.name) ? { ...e, name: nextName(names) } : e;
      if (same.some((x) => x.n === renamed.n)) renamed = { ...renamed, n: nextNumber(same) };
      merged.push(renamed);
      if (renamed !== e) void this.save(renamed);
    }
    // entries stored before runs had numbers: numbered in their order, after the numbers in use
    for (const e of merged.filter((x) => !x.n)) {
      e.n = nextNumber(merged.filter((x) => x.slot === e.slot));
      void this.save(e);
    }
    return merged;
  }

  /** A message in one slot's list, or (slot null: about the whole store) once, in the first
   *  slot's list, the first on the page (not repeated in all nine). */
  private say(slot: SlotName | null, ...msg: RunsMessage[]) {
    const s = slot ?? this.slots[0];
    if (s) this.message = { ...this.message, [s]: msg };
  }

  clearMessage(slot: SlotName) {
    this.say(slot);
  }

  of(slot: SlotName): RunEntry[] {
    return this.entries.filter((e) => e.slot === slot);
  }

  get(id: string): RunEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }

  /** What the slot's figure draws over its reference (entry.ts drawnEntries). */
  drawn(slot: SlotName): RunEntry[] {
    return drawnEntries(this.of(slot), this.isolated[slot] ?? null);
  }

  private patch(id: string, p: Partial<RunEntry>): RunEntry | undefined {
    let out: RunEntry | undefined;
    this.entries = this.entries.map((e) => (e.id === id ? (out = { ...e, ...p }) : e));
    return out;
  }

  private async save(e: RunEntry | undefined) {
    if (!e) return;
    try {
      await this.store.put(e);
      this.tell({ type: 'put', entry: JSON.parse(JSON.stringify(e)) });
    } catch (err) {
      this.say(e.slot, storageMessage(err, 'save'));
    }
  }

  /** Tell the other tabs of this store what was written here. */
  private tell(m: TabMessage) {
    try {
      this.channel?.postMessage(m);
    } catch {
      /* a closed channel: the other tabs read it from storage at their next load */
    }
  }

  /** What another tab wrote: its entry shown here too (checked as a stored one is), or removed. A
   *  run of this tab that shares its name with one the other tab began earlier takes the next
   *  free name (both tabs agree which: the later one, by creation time then id), so names stay
   *  unique across tabs. */
  private fromOtherTab(m: unknown) {
    const msg = m as TabMessage | null;
    if (msg?.type === 'delete' && typeof msg.id === 'string') {
      if (this.get(msg.id)) this.entries = this.entries.filter((x) => x.id !== msg.id);
      for (const [s, back] of this.heldBack)
        this.heldBack.set(
          s,
          back.filter((x) => x.id !== msg.id),
        );
      return;
    }
    if (msg?.type !== 'put' || entryProblem(msg.entry, this.slots, docProblem)) return;
    const e = toEntry(msg.entry as unknown as Record<string, unknown>);
    // a held slot's: kept back with its stored entries (in its newer state)
    const back = this.heldBack.get(e.slot);
    if (back) return void this.heldBack.set(e.slot, [...back.filter((x) => x.id !== e.id), e]);
    if (this.get(e.id)?.status === 'running') return; // a run of this tab under way: this tab writes it
    const rest = this.entries.filter((x) => x.id !== e.id);
    this.entries = [...rest, e].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    const later = (a: RunEntry, b: RunEntry) => a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
    for (const mine of this.entries.filter((x) => this.own.has(x.id) && x.slot === e.slot && (x.name === e.name || x.n === e.n) && later(x, e))) {
      const others = this.of(e.slot).filter((x) => x.id !== mine.id);
      const names = others.map((x) => x.name);
      void this.save(this.patch(mine.id, { name: mine.name === e.name ? nextName(names) : mine.name, n: mine.n === e.n ? nextNumber(others) : mine.n }));
    }
  }

  /** A new running entry for `slot`; returns its id. */
  begin(slot: SlotName, config: Record<string, unknown>, at = new Date()): string {
    const now = new Date(Math.max(at.getTime(), this.lastBegun + 1));
    this.lastBegun = now.getTime();
    const e: RunEntry = {
      id: newId(now.getTime()),
      slot,
      name: nextName(this.of(slot).map((x) => x.name)),
      n: nextNumber(this.of(slot)),
      createdAt: now.toISOString(),
      finishedAt: null,
      config: structuredClone($state.snapshot(config)) as Record<string, unknown>,
      status: 'running',
      message: '',
      fraction: 0,
      elapsedMs: 0,
      engine: null,
      doc: null,
      hidden: false,
      imported: null,
    };
    this.entries = [...this.entries, e];
    this.own.add(e.id);
    // a new run is drawn: an isolated other entry would hide it
    if (this.isolated[slot]) this.isolated = { ...this.isolated, [slot]: null };
    void this.save(e);
    return e.id;
  }

  /** A running entry's progress (and, for a streaming run, its document so far). */
  progress(id: string, fraction: number, elapsedMs: number, doc?: unknown) {
    const e = this.patch(id, doc === undefined ? { fraction, elapsedMs } : { fraction, elapsedMs, doc });
    const t = Date.now();
    if (e && doc !== undefined && t - (this.lastSave.get(id) ?? 0) >= SAVE_EVERY_MS) {
      this.lastSave.set(id, t);
      void this.save({ ...e, status: 'partial' });
    }
  }

  /** The end of a run: complete ('done'), or what it had computed when cancelled / failed. An
   *  entry that computed nothing is removed (the run strip says what happened). */
  finish(id: string, p: Pick<RunEntry, 'status'> & Partial<RunEntry>, now = new Date()) {
    this.lastSave.delete(id);
    const cur = this.get(id);
    if (!cur) return;
    const doc = p.doc !== undefined ? p.doc : cur.doc;
    if (doc == null && p.status !== 'done') return void this.remove(id);
    void this.save(this.patch(id, { ...p, doc, finishedAt: now.toISOString(), fraction: p.status === 'done' ? 1 : (p.fraction ?? cur.fraction) }));
  }

  rename(id: string, name: string) {
    const n = name.trim().slice(0, 200);
    if (n) void this.save(this.patch(id, { name: n }));
  }

  setHidden(id: string, hidden: boolean) {
    const e = this.patch(id, { hidden });
    if (e && hidden && this.isolated[e.slot] === id) this.isolated = { ...this.isolated, [e.slot]: null };
    void this.save(e);
  }

  /** Draw only `id` (again: draw every shown entry). */
  isolate(slot: SlotName, id: string | null) {
    this.isolated = { ...this.isolated, [slot]: this.isolated[slot] === id ? null : id };
  }

  /** Remove an entry (from storage too); `undoable`: the reader removed it, Undo brings it back. */
  remove(id: string, undoable = false) {
    const e = this.get(id);
    if (!e) return;
    this.entries = this.entries.filter((x) => x.id !== id);
    this.lastRemoved = undoable ? e : this.lastRemoved?.id === id ? null : this.lastRemoved;
    if (this.isolated[e.slot] === id) this.isolated = { ...this.isolated, [e.slot]: null };
    void this.store.delete(id).then(
      () => this.tell({ type: 'delete', id }),
      (err) => this.say(e.slot, storageMessage(err, 'delete')),
    );
  }

  /** Bring back the entry removed last, where it was in the order. */
  undoRemove() {
    const e = this.lastRemoved;
    if (!e) return;
    this.lastRemoved = null;
    this.entries = [...this.entries, e].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    void this.save(e);
  }

  /** The file exporting `slot`'s finished entries (or every slot's). */
  exportFile(slot: SlotName | null, generator: RunsFile['generator']): RunsFile {
    return runsFile(slot ? this.of(slot) : this.entries, generator);
  }

  /** Add the runs of an exported file's text; the message (in `slot`'s list) says what was added
   *  and skipped. `figureOf` names a slot's figure ("Figure 4") for the message. */
  importText(text: string, fileName: string, slot: SlotName, figureOf: (s: SlotName) => string): RunEntry[] {
    return this.add(parseRunsFile(text, fileName, this.slots, docProblem), fileName, slot, figureOf);
  }

  /** The same for a file, read and checked off the main thread (runs/import-file.ts). */
  async importFile(file: Blob, fileName: string, slot: SlotName, figureOf: (s: SlotName) => string): Promise<RunEntry[]> {
    let r: ImportResult;
    try {
      r = await readRunsFile(file, fileName, this.slots);
    } catch (e) {
      r = unreadableFile(fileName, e);
    }
    return this.add(r, fileName, slot, figureOf);
  }

  private add(r: ImportResult, fileName: string, slot: SlotName, figureOf: (s: SlotName) => string): RunEntry[] {
    if (r.error) {
      this.say(slot, r.error);
      return [];
    }
    // imported runs take the next numbers of their slots here (the file's numbers were another list's),
    // and a name the other list gave ("#2") follows the number, so that no two runs are both "#2";
    // a name a reader gave stays
    for (const e of r.runs) e.n = 0;
    for (const e of r.runs) {
      e.n = nextNumber([...this.of(e.slot), ...r.runs.filter((x) => x.slot === e.slot)]);
      if (LIST_NAME.test(e.name)) e.name = `#${e.n}`;
    }
    this.entries = [...this.entries, ...r.runs];
    for (const e of r.runs) this.own.add(e.id);
    for (const e of r.runs) void this.save(e);
    const outside = r.runs.filter((e) => outOfRange(e.slot, e.config).length).length;
    const bySlot = new Map<string, number>();
    for (const e of r.runs) bySlot.set(figureOf(e.slot), (bySlot.get(figureOf(e.slot)) ?? 0) + 1);
    const where = [...bySlot].map(([f, n]) => `${f} × ${n}`).join(', ');
    this.say(
      slot,
      r.runs.length
        ? { key: 'runs.msg.imported', vars: { n: r.runs.length, file: fileName, where } }
        : { key: 'runs.msg.importNone', vars: { file: fileName } },
      ...r.skipped.slice(0, MAX_SKIPPED_LINES).map((what) => ({ key: 'runs.msg.skipped', vars: { what } })),
      ...(r.skipped.length > MAX_SKIPPED_LINES ? [{ key: 'runs.msg.skippedMore', vars: { n: r.skipped.length - MAX_SKIPPED_LINES } }] : []),
      ...(outside ? [{ key: 'runs.msg.outOfRange', vars: { n: outside } }] : []),
    );
    return r.runs;
  }
}
