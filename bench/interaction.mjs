// interaction.mjs — what the main-thread benches record in a page from its start, and how they touch
// it (bench/mainthread_bench.mjs, bench/calibration_tap_ab.mjs).

/** An init script (page.addInitScript): the page's long tasks (`__long`: [start, duration]), its
 *  first contentful paint (`__fcp`) and its interactions' Event Timing entries (`__events`). */
export function observe() {
  const g = globalThis;
  g.__long = [];
  g.__events = [];
  new PerformanceObserver((l) => l.getEntries().forEach((e) => g.__long.push([e.startTime, e.duration]))).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((l) => l.getEntries().forEach((e) => e.name === 'first-contentful-paint' && (g.__fcp = e.startTime))).observe({
    type: 'paint',
    buffered: true,
  });
  new PerformanceObserver((l) =>
    l
      .getEntries()
      .forEach(
        (e) =>
          e.interactionId && g.__events.push({ name: e.name, id: e.interactionId, at: e.startTime, ms: e.duration, delay: e.processingStart - e.startTime }),
      ),
  ).observe({ type: 'event', durationThreshold: 16, buffered: true });
}

/** Until no long task has started for `ms` (at most 30 s): the page is quiet (a figure that just
 *  went live may start the engine's calibration, lib/calibrate.ts, whose reports take the main
 *  thread now and then). Returns how long it waited. */
export async function quiet(page, ms = 2000) {
  const t0 = Date.now();
  await page.waitForFunction(
    (ms) => {
      const last = globalThis.__long.at(-1);
      return !last || performance.now() - (last[0] + last[1]) > ms;
    },
    ms,
    { timeout: 30000, polling: 100 },
  );
  return Date.now() - t0;
}

/** A tap on `selector` as the touch screen sends it (CDP touch events at its centre): not
 *  Playwright's tap, whose checks of the target (its hit-target listener, role and state queries)
 *  run in the page's main thread during the interaction and were part of what it measured. */
export async function tap(page, selector) {
  const at = await page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}
