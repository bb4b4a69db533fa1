// slices.ts — work in slices that leave the main thread free between them: a reader's tap or key
// is answered between two slices (lib/islands.ts makes one island live per slice).

/** Give the browser a turn (input, paint) before the next slice: scheduler.yield where the
 *  browser has it (it keeps this work's place in the queue), else a fresh task. */
export const yieldToBrowser = (): Promise<void> => {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return s?.yield ? s.yield() : new Promise((r) => setTimeout(r, 0));
};
