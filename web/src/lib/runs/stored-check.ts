// runs/stored-check.ts — the run list's stored entries (store.ts) read back and checked off the
// main thread: in a worker (stored-worker.ts) when the browser has workers, else here (tests,
// Node). A stored run can be large (a grid of 10⁶ losses is several MB): reading it back from
// IndexedDB turns every number into a value of the heap, and checking walks every one, on
// whichever thread does it, and the page's first tasks must stay short (lib/islands.ts). The worker
// opens the same store, reads and checks every entry (entry.ts entryProblem), and hands back each
// good entry with its long lists of numbers as Float64Arrays, which cross between threads without
// being copied value by value (packNumbers); the page turns them back into lists (unpackNumbers),
// a loop over plain numbers.
import { docProblem } from './doc-check';
import { entryProblem } from './entry';

/** Lists of at least this many numbers (or nulls) cross as Float64Arrays. */
export const PACK_MIN = 4096;

/** What the page reads of its store: each stored value (null where it had a problem) and the problems. */
export interface StoredRead {
  values: unknown[];
  problems: (string | null)[];
}

export interface StoredRequest {
  /** the IndexedDB database (store.ts DB_NAME) */
  db: string;
  slots: readonly string[];
}

/** Why each value cannot be an entry of a page drawing `slots` (entry.ts entryProblem), or null. */
export const storedProblems = (values: readonly unknown[], slots: readonly string[]): (string | null)[] =>
  values.map((x) => entryProblem(x, slots, docProblem));

type Packed = { f64: Float64Array };
const isPacked = (x: unknown): x is Packed => typeof x === 'object' && x !== null && (x as Packed).f64 instanceof Float64Array && Object.keys(x).length === 1;

/** `x` with every list of PACK_MIN or more numbers (or nulls: NaN in the array; a checked value
 *  holds no NaN, JSON has none) replaced by { f64 }, each array's buffer added to `transfer`. A
 *  new value; `x` is not changed. */
export function packNumbers(x: unknown, transfer: ArrayBuffer[] = [], depth = 16): unknown {
  if (depth <= 0 || x === null || typeof x !== 'object') return x;
  if (Array.isArray(x)) {
    if (x.length >= PACK_MIN && x.every((v) => v === null || typeof v === 'number')) {
      const f64 = Float64Array.from(x, (v) => (v === null ? NaN : (v as number)));
      transfer.push(f64.buffer);
      return { f64 };
    }
    return x.map((v) => packNumbers(v, transfer, depth - 1));
  }
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, packNumbers(v, transfer, depth - 1)]));
}

/** The value packNumbers made, as it was (NaN back to null). */
export function unpackNumbers(x: unknown, depth = 16): unknown {
  if (depth <= 0 || x === null || typeof x !== 'object') return x;
  if (isPacked(x)) {
    const out = new Array<number | null>(x.f64.length);
    for (let i = 0; i < x.f64.length; i++) {
      const v = x.f64[i];
      out[i] = v !== v ? null : v;
    }
    return out;
  }
  if (Array.isArray(x)) return x.map((v) => unpackNumbers(v, depth - 1));
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, unpackNumbers(v, depth - 1)]));
}

/** Read `all` and check it here (no worker). */
export async function readHere(all: () => Promise<unknown[]>, slots: readonly string[]): Promise<StoredRead> {
  const values = await all();
  const problems = storedProblems(values, slots);
  return { values: values.map((v, i) => (problems[i] ? null : v)), problems };
}

/** Read and check database `db`'s entries in a worker; null where there is no worker, or it failed
 *  (the caller reads them itself then). */
export async function readInWorker(db: string, slots: readonly string[]): Promise<StoredRead | null> {
  if (typeof Worker === 'undefined') return null;
  let w: Worker | null = null;
  try {
    w = new Worker(new URL('./stored-worker.ts', import.meta.url), { type: 'module', name: 'lnx-stored' });
    const worker = w;
    const read = await new Promise<StoredRead | { error: string }>((resolve, reject) => {
      worker.onmessage = (ev: MessageEvent<StoredRead | { error: string }>) => resolve(ev.data);
      worker.onerror = (ev) => reject(new Error(ev.message || 'the run list worker failed'));
      worker.postMessage({ db, slots: [...slots] } satisfies StoredRequest);
    });
    if ('error' in read) return null;
    return { values: read.values.map((v) => unpackNumbers(v)), problems: read.problems };
  } catch {
    return null;
  } finally {
    w?.terminate();
  }
}
