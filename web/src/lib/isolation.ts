// isolation.ts — cross-origin isolation (and with it the threaded engine) on a static host that
// sends no COOP/COEP headers. public/sw.js adds the headers to what it serves, but a page is
// isolated only when the worker served that very load: the first visit (before the worker is
// there) and a load that bypassed it (Shift+Reload) are not. main.ts calls isolate() before the
// live page mounts; where a reload would make the page isolated it reloads once, so the reader
// sees the prerendered article, then the same article once more, and the live page mounts only on
// the second load. A sessionStorage mark, set just before that reload, keeps it to once per tab:
// a load that finds the mark and is still not isolated (the browser refuses: no COEP support, a
// blocked or broken worker) stays as it is and runs the single-threaded engine, as on any host
// before. An isolated load drops the mark, so a later Shift+Reload may reload once again; in
// Chromium it does not stick (an isolated page, under COOP, gets a copy of the tab's
// sessionStorage, and a load without COOP gets the old one back, mark and all): there a
// Shift+Reload stays single-threaded until the next ordinary load, which the worker serves
// isolated. Never reloads an embed (?embed=figN) or a page in a frame (a frame is isolated only when
// its parent is), nor a page that index.html's guard is leaving for the other language's copy,
// nor where service workers or sessionStorage are unavailable (no way to keep the reload to once:
// no reload). The page sets <html data-isolation> to what it found (isolated, reloading,
// not-isolated) for the tests.
// The decision is the pure isolationPlan (tests/unit/isolation.test.ts); isolate() does the
// browser's part. Leaves out: the engine's choice itself (engine/backend-choice.ts cpuGlue reads
// crossOriginIsolated).

/** What the page knows about itself, synchronously, at start-up. */
export interface IsolationFacts {
  isolated: boolean;
  /** ?embed=figN */
  embed: boolean;
  /** inside a frame (window.top !== window) */
  framed: boolean;
  /** index.html's guard is sending the reader to the other language's copy (<html data-leaving>) */
  leaving: boolean;
  /** navigator.serviceWorker is there and the context is secure (https, localhost) */
  serviceWorker: boolean;
  /** the sessionStorage mark: set by an earlier reload of this tab; null when sessionStorage is unavailable */
  reloaded: boolean | null;
  /** a service worker served this load (navigator.serviceWorker.controller) */
  controlled: boolean;
}

/** isolated: nothing to do (drop the mark). stay: run as the page is (not isolated).
 *  await-worker: no worker served this load; register it and reload once it is active.
 *  await-update: a worker served it without isolating it: an older sw.js without the headers
 *  (reload once its successor takes over) or a browser that will not isolate (stay). */
export type IsolationPlan = 'isolated' | 'stay' | 'await-worker' | 'await-update';

export function isolationPlan(f: IsolationFacts): IsolationPlan {
  if (f.isolated) return 'isolated';
  if (f.embed || f.framed || f.leaving || !f.serviceWorker || f.reloaded !== false) return 'stay';
  return f.controlled ? 'await-update' : 'await-worker';
}

/** How long the first visit waits for the worker to install (it keeps nothing on install: public/sw.js,
 *  so this is its script's download and start; the site is kept later, lib/offline.ts) before
 *  the live page mounts without it; the next visit is isolated then. */
export const WORKER_WAIT_MS = 8000;
const MARK = 'lnx.isolation-reload';

function storage(): Storage | null {
  try {
    const s = window.sessionStorage;
    s.getItem(MARK);
    return s;
  } catch {
    return null;
  }
}

const within = <T>(p: Promise<T>, ms: number): Promise<T | null> => Promise.race([p, new Promise<null>((r) => setTimeout(() => r(null), ms))]);

/** Once the worker that adds the headers will serve the next load: true; false when there is none
 *  coming (or not in time). */
async function workerReady(plan: 'await-worker' | 'await-update', base: string): Promise<boolean> {
  const sw = navigator.serviceWorker;
  const reg = await sw.register(`${base}sw.js`, { scope: base });
  if (plan === 'await-worker') return reg.active !== null || (await within(sw.ready, WORKER_WAIT_MS)) !== null;
  // served by a worker: is a newer one on its way? (listening first: it may take over at once)
  const changed = new Promise<true>((r) => sw.addEventListener('controllerchange', () => r(true), { once: true }));
  await reg.update();
  if (!reg.installing && !reg.waiting) return false;
  return (await within(changed, WORKER_WAIT_MS)) === true;
}

/** Decide, and reload once where that makes the page isolated. Resolves 'reloading' when a reload
 *  is under way (the caller mounts nothing), else once the live page may mount. Never throws. */
export async function isolate(base: string, search = location.search): Promise<'isolated' | 'reloading' | 'not-isolated'> {
  const html = document.documentElement;
  const done = (r: 'isolated' | 'reloading' | 'not-isolated') => ((html.dataset.isolation = r), r);
  const store = storage();
  let framed = true;
  try {
    framed = window.top !== window.self;
  } catch {
    /* a cross-origin parent that will not say: framed */
  }
  let facts: IsolationFacts;
  try {
    facts = {
      isolated: globalThis.crossOriginIsolated === true,
      embed: new URLSearchParams(search).has('embed'),
      framed,
      leaving: html.hasAttribute('data-leaving'),
      serviceWorker: 'serviceWorker' in navigator && window.isSecureContext,
      reloaded: store ? store.getItem(MARK) !== null : null,
      controlled: !!navigator.serviceWorker?.controller,
    };
  } catch {
    return done('not-isolated'); // navigator.serviceWorker throws in an opaque-origin frame
  }
  const plan = isolationPlan(facts);
  if (plan === 'isolated') {
    store?.removeItem(MARK);
    return done('isolated');
  }
  if (plan === 'stay') return done('not-isolated');
  try {
    if (!(await workerReady(plan, base))) return done('not-isolated');
    store!.setItem(MARK, '1');
  } catch {
    return done('not-isolated'); // registration refused (private mode, blocked), offline, or no room for the mark
  }
  location.reload();
  return done('reloading');
}
