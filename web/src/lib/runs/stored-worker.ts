// runs/stored-worker.ts — reads the run list's store and checks its entries off the page's main
// thread (stored-check.ts): answers with each entry (its long lists of numbers packed as
// Float64Arrays, transferred) or null, and each entry's problem or null; { error } when the store
// cannot be read here (the page then reads it itself, and says why if it cannot either).
import { openRunStore } from './store';
import { packNumbers, readHere, type StoredRequest } from './stored-check';

self.onmessage = async (ev: MessageEvent<StoredRequest>) => {
  const { db, slots } = ev.data;
  try {
    const store = await openRunStore(db);
    const read = await readHere(() => store.all(), slots);
    store.close?.();
    const transfer: ArrayBuffer[] = [];
    const values = read.values.map((v) => (v == null ? null : packNumbers(v, transfer)));
    (self as unknown as Worker).postMessage({ values, problems: read.problems }, transfer);
  } catch (e) {
    (self as unknown as Worker).postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
};
