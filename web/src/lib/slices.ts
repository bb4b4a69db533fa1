// slices.ts — work in slices that leave the main thread free between them: a reader's tap or key
// is answered between two slices (lib/islands.ts makes one island live per slice).

/** Give the browser a turn (input, paint) before the next slice: scheduler.yield where the
 *  browser has it (it keeps this work's place in the queue), else a fresh task. */
export const yieldToBrowser = (): Promise<void> => {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return s?.yield ? s.yield() : new Promise((r) => setTimeout(r, 0));
};

/** When the main thread is idle (requestIdleCallback), at the latest after `maxWaitMs`; where the
 *  browser has no idle callbacks, after `fallbackMs`. */
export const whenIdle = (maxWaitMs = 5000, fallbackMs = 1000): Promise<void> =>
  new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: maxWaitMs });
    else setTimeout(resolve, fallbackMs);
  });

/** After the browser's next rendering (a frame), in a task of its own: what a slice changed is laid
 *  out and painted before the next one starts (scheduler.yield alone may run the next slice before
 *  the frame, and the two renderings' work then falls in one). Where no frame comes (a hidden tab,
 *  no requestAnimationFrame), after `maxWaitMs`. */
export const afterNextPaint = (maxWaitMs = 100): Promise<void> =>
  new Promise((resolve) => {
    let done = false;
    const go = () => {
      if (done) return;
      done = true;
      setTimeout(resolve, 0);
    };
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(go);
    setTimeout(go, maxWaitMs);
  });
