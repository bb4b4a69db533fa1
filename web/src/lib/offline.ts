// offline.ts — registers public/sw.js (production builds only, never in an embed) so the page works
// offline after the first visit. Resolves true once the service worker is active, i.e. once its
// install step has cached the page, the engine and the data; the page then marks
// <html data-offline="ready">. Any failure (no service-worker support, private mode, a file://
// page) resolves false and changes nothing else.
export async function registerOffline(base: string): Promise<boolean> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return false;
  try {
    await navigator.serviceWorker.register(`${base}sw.js`, { scope: base });
    await navigator.serviceWorker.ready;
    document.documentElement.dataset.offline = 'ready';
    return true;
  } catch {
    return false;
  }
}
