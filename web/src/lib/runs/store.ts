// runs/store.ts — where the run list is kept between visits: IndexedDB through `idb`, one object
// store of entries keyed by id. Everything that can go wrong with browser storage (no IndexedDB,
// private mode, a full quota, an entry written by a newer page or corrupted) becomes a message in
// the reader's terms and never takes other entries with it: a failed write leaves the run in
// memory for this visit, a bad entry is skipped and left in place untouched.
import { openDB, type IDBPDatabase } from 'idb';
import type { RunEntry, RunsMessage } from './entry';
import { readInWorker, type StoredRead } from './stored-check';
export type { RunsMessage } from './entry';

export const DB_NAME = 'lnx-runs';
export const DB_VERSION = 1;
export const STORE = 'runs';

export interface RunStore {
  /** the name of the BroadcastChannel on which the tabs sharing this store tell each other what
   *  they wrote (absent: a store of this tab alone) */
  channel?: string;
  /** every stored value (unchecked: the run list checks each one) */
  all(): Promise<unknown[]>;
  put(e: RunEntry): Promise<void>;
  delete(id: string): Promise<void>;
  /** read and check every stored value elsewhere (stored-check.ts: a worker), or null: read here */
  checked?(slots: readonly string[]): Promise<StoredRead | null>;
  /** let go of the database (a worker's reading connection) */
  close?(): void;
}

/** A storage failure in the reader's terms. */
export function storageMessage(e: unknown, what: 'open' | 'save' | 'delete'): RunsMessage {
  const name = (e as { name?: string } | null)?.name ?? '';
  if (name === 'QuotaExceededError') return { key: 'runs.msg.full' };
  // the database has a higher version than this page opens: a newer page wrote it
  if (name === 'VersionError') return { key: 'runs.msg.newerStore' };
  if (what === 'open') return { key: 'runs.msg.noStorage' };
  return { key: what === 'save' ? 'runs.msg.saveFailed' : 'runs.msg.deleteFailed', vars: { why: name || String(e) } };
}

/** The IndexedDB store (database `name`); rejects when IndexedDB is unavailable or refuses to open. */
export async function openRunStore(name = DB_NAME): Promise<RunStore> {
  if (!globalThis.indexedDB) throw Object.assign(new Error('no IndexedDB'), { name: 'NotSupportedError' });
  const db: IDBPDatabase = await openDB(name, DB_VERSION, {
    upgrade(db) {
      if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'id' });
    },
    // a newer page in another tab wants to upgrade the database: let it (this tab's later writes
    // fail with a message and stay in memory)
    blocking() {
      db.close();
    },
  });
  return {
    channel: `lnx-runs:${name}`,
    all: () => db.getAll(STORE),
    put: async (e) => {
      await db.put(STORE, $snapshotable(e));
    },
    delete: (id) => db.delete(STORE, id),
    checked: (slots) => readInWorker(name, slots),
    close: () => db.close(),
  };
}

/** Structured clone refuses Svelte's state proxies: store a plain copy. */
const $snapshotable = (e: RunEntry): RunEntry => JSON.parse(JSON.stringify(e)) as RunEntry;

/** A store that keeps nothing between visits (storage unavailable; embeds). */
export const memoryStore = (): RunStore => {
  const m = new Map<string, RunEntry>();
  return {
    all: async () => [...m.values()],
    put: async (e) => void m.set(e.id, e),
    delete: async (id) => void m.delete(id),
  };
};
