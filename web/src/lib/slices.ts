// slices.ts — build something big in slices that leave the main thread free between them: a
// reader's tap or key is answered between two slices instead of after the whole page.
import { flushSync } from 'svelte';

/** Give the browser a turn (input, paint) before the next slice: scheduler.yield where the
 *  browser has it (it keeps this work's place in the queue), else a fresh task. */
export const yieldToBrowser = (): Promise<void> => {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return s?.yield ? s.yield() : new Promise((r) => setTimeout(r, 0));
};

/**
 * Raise a count from its start to `total` one at a time, applying each step to the page at once
 * (`set`, then Svelte's flushSync), and yield to the browser whenever a slice has taken
 * `budgetMs`: one step is never split, so the longest task is about the budget plus the most
 * expensive single step. Stops early when `signal` aborts. Resolves when done.
 */
export async function growInSlices(
  total: number,
  set: (n: number) => void,
  { budgetMs = 30, signal, now = () => performance.now() }: { budgetMs?: number; signal?: AbortSignal; now?: () => number } = {},
): Promise<void> {
  let n = 0;
  while (n < total) {
    await yieldToBrowser();
    if (signal?.aborted) return;
    const t0 = now();
    do {
      set(++n);
      flushSync();
    } while (n < total && now() - t0 < budgetMs);
  }
}
