// offline.ts — the page's side of public/sw.js: registers it (production builds only, never in an
// embed) and, once the page is idle, asks it to keep the site for offline use. The worker installs
// at once and keeps nothing on install (a first visit on a host without COOP/COEP waits for it
// before its one reload: lib/isolation.ts); the site goes into its cache when the page asks:
// the page and the other language's copy, the built assets, the precomputed results, and of the
// engine the flavours this browser runs on a page the worker serves (`offlineFlavours`), not all
// four. Resolves true once the worker says the site is kept; the page then marks
// <html data-offline="ready">. Any failure (no service-worker support, private mode, a file://
// page, a worker that does not answer) resolves false and changes nothing else.
import { cpuGlue, hasRelaxedSimd, type CpuGlue } from '../engine/backend-choice';

/** The engine's flavours the worker keeps for offline use: the one this browser runs on a page the
 *  worker serves (cross-origin isolated: threaded; the FMA flavour where the browser has relaxed
 *  SIMD) and the one it falls back to if that fails to load. The single-threaded ones (an embed, a
 *  page the worker does not serve) are kept once a page has loaded them. */
export function offlineFlavours(relaxedSimd: boolean): CpuGlue[] {
  const { glue, fallback } = cpuGlue(true, relaxedSimd);
  return fallback ? [glue, fallback] : [glue];
}

/** How long the page waits for the worker's answer once it has asked (the worker fetches a few MB). */
const ANSWER_MS = 180_000;

/** The worker that will answer: the registration's newest, once active. */
async function activeWorker(reg: ServiceWorkerRegistration): Promise<ServiceWorker | null> {
  const w = reg.installing ?? reg.waiting ?? reg.active;
  if (!w) return null;
  if (w.state === 'activated') return w;
  return new Promise((resolve) => {
    const seen = () => {
      if (w.state === 'activated' || w.state === 'redundant') {
        w.removeEventListener('statechange', seen);
        resolve(w.state === 'activated' ? w : reg.active);
      }
    };
    w.addEventListener('statechange', seen);
    seen();
  });
}

/** Register public/sw.js and have it keep the site; true once it has. Call when the page is idle. */
export async function registerOffline(base: string): Promise<boolean> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return false;
  try {
    const reg = await navigator.serviceWorker.register(`${base}sw.js`, { scope: base });
    const worker = await activeWorker(reg);
    if (!worker) return false;
    const kept = await new Promise<boolean>((resolve) => {
      const channel = new MessageChannel();
      const timer = setTimeout(() => resolve(false), ANSWER_MS);
      channel.port1.onmessage = (ev) => {
        clearTimeout(timer);
        resolve(ev.data?.type === 'kept' && ev.data.ok === true);
      };
      worker.postMessage({ type: 'keep', engine: offlineFlavours(hasRelaxedSimd()) }, [channel.port2]);
    });
    if (kept) document.documentElement.dataset.offline = 'ready';
    return kept;
  } catch {
    return false;
  }
}
