/*
 * sw.js — offline after the first visit, and cross-origin isolation on any static host. Registered
 * by the page in production builds, never from an embed: by web/src/lib/isolation.ts before the
 * live page mounts where the page is not isolated yet, by web/src/lib/offline.ts once the page is
 * idle. Everything the page needs is self-hosted, so one cache holds the whole site:
 *
 *   install  → nothing kept yet: the worker takes over at once (skipWaiting), so that a first visit
 *              on a host without COOP/COEP reloads isolated within a moment, not after the site's
 *              few MB have come down (lib/isolation.ts waits for it before that one reload).
 *   message  → {type: 'keep', engine: [flavours]} from a page (lib/offline.ts, once it is idle):
 *              keeps the page and the other languages' copies it names (zh/), the precomputed
 *              results (data/*), embed.js, the engine's glue, wasm and pthread worker of the
 *              flavours named (the one this browser runs and its fallback; all four when none is
 *              named), and every built asset reachable from index.html (JS chunks of both
 *              languages, the engine worker, CSS, the KaTeX woff2 fonts), found by reading the
 *              files for "name-HASH.ext" references — no build step has to list them. Answers
 *              {type: 'kept', ok} on the message's port. Done once per build and set of flavours
 *              (a mark in the cache, keyed by the hashed names the page's HTML holds); a later
 *              visit of the same build only fetches the page again.
 *   fetch    → same-origin GETs only. Hashed files under assets/: cache first. Everything else
 *              (the page, data/, wasm/, embed.js): network first, falling back to the cache when
 *              offline, so a redeploy is picked up on the next online visit. A navigation to any
 *              query (?lang=zh, ?embed=fig2…) falls back to the cached page.
 *              Every response handed back, from the network or the cache, gets
 *              Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy:
 *              require-corp (the headers `vite preview` sends; a plain static host such as GitHub
 *              Pages or `python3 -m http.server` cannot), so the page the worker serves is
 *              cross-origin isolated and runs the threaded engine. require-corp, not credentialless:
 *              every subresource is same-origin, and Safari knows only require-corp. The engine
 *              worker and its pthread workers get them too (a dedicated worker under a COEP page
 *              must have COEP itself). Two kinds of document are left as the server sent them: an
 *              embed (?embed=figN) and any page loaded in a frame. A frame is isolated only when
 *              its parent is, and a blog that embeds a figure is not; the embed stays on the
 *              single-threaded engine, as docs/sharing.md promises. Redirects and opaque responses
 *              pass untouched (their headers cannot be changed).
 *   activate → drops caches of older versions, then claims the open pages. A page that the worker
 *              did not serve is not isolated until it is loaded again: lib/isolation.ts reloads it
 *              once, before the live page mounts (a sessionStorage mark keeps it to once).
 * Leaves out: background sync, push, cross-origin requests (there are none).
 */
'use strict';
const VERSION = 'lnx-v4';
const SCOPE = new URL(self.registration.scope);
const at = (p) => new URL(p, SCOPE).href;
const PUBLIC = [
  '',
  'index.html',
  'embed.js',
  'data/probe.json',
  'data/grid.json',
  // the placement composer as it opens (lib/composer-run.svelte.ts)
  'data/composer.json',
  'wasm/package.json',
];
/** The engine's flavours (public/wasm/lnx-FLAVOUR.*; engine/backend-choice.ts cpuGlue); the FMA
 *  ones are what a browser with relaxed SIMD loads, the plain ones its fallback. */
const FLAVOUR = /^(st|mt)(-fma)?$/;
const ALL_FLAVOURS = ['st', 'mt', 'st-fma', 'mt-fma'];
/** A flavour's files: its glue, its wasm, and a threaded one's pthread worker. */
const engineFiles = (flavours) =>
  flavours.flatMap((f) => [`wasm/lnx-${f}.mjs`, `wasm/lnx-${f}.wasm`, ...(f.startsWith('mt') ? [`wasm/lnx-${f}.worker.js`] : [])]);
const HASHED = /[\w.-]+-[\w-]{8}\.(?:js|css|woff2)(?![\w.])/g;
const MAX_FILES = 400;

async function put(cache, url) {
  try {
    const res = await fetch(url, { cache: 'no-cache', credentials: 'same-origin' });
    if (!res.ok) return null;
    await cache.put(url, res.clone());
    return res;
  } catch {
    return null;
  }
}

/** The copies a built page names in <html data-copies='{"zh":"zh/"}'> (HTML-escaped), as paths
 *  under the scope; none where there are none (the page was not prerendered). */
function copiesOf(html) {
  const m = /<html[^>]*\sdata-copies="([^"]*)"/.exec(html);
  if (!m) return [];
  try {
    const copies = JSON.parse(
      m[1]
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&amp;/g, '&'),
    );
    return Object.values(copies).filter((p) => typeof p === 'string' && /^[\w-]+\/$/.test(p));
  } catch {
    return [];
  }
}

/** A short key of `s` (FNV-1a, base 36), for the mark of what has been kept. */
function keyOf(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** Keep the site with the engine's `flavours`; true when the page and those flavours' files are
 *  in the cache (an asset a file names that is not there is passed over, as a redeploy's leftover). Once per build and set of flavours: the page is fetched again each time (its
 *  hashed names say which build it is), the rest only when the mark for them is missing. */
async function keep(flavours) {
  const cache = await caches.open(VERSION);
  const page = await put(cache, at(''));
  if (!page) return false;
  const first = await page.text();
  const mark = at(`.kept/${keyOf(`${flavours.join(',')} ${[...new Set(first.match(HASHED) ?? [])].sort().join(' ')}`)}`);
  if (await cache.match(mark)) return true;
  const seen = new Set([at('')]);
  const queue = [first];
  let ok = true;
  for (const copy of copiesOf(first)) {
    seen.add(at(copy));
    const c = await put(cache, at(copy));
    if (c) queue.push(await c.text());
  }
  for (const p of [...PUBLIC, ...engineFiles(flavours)]) {
    if (seen.has(at(p))) continue;
    seen.add(at(p));
    const res = await put(cache, at(p));
    if (!res && p.startsWith('wasm/lnx-')) ok = false;
  }
  while (queue.length && seen.size < MAX_FILES) {
    const text = queue.shift();
    for (const name of new Set(text.match(HASHED) ?? [])) {
      const url = at(`assets/${name}`);
      if (seen.has(url)) continue;
      seen.add(url);
      const res = await put(cache, url);
      if (res && /\.(js|css)$/.test(name)) queue.push(await res.text());
    }
  }
  if (ok) await cache.put(mark, new Response('', { headers: { 'Content-Type': 'text/plain' } }));
  return ok;
}

/** One keeping at a time per set of flavours (two tabs asking at once share it). */
const keeping = new Map();

self.addEventListener('install', (ev) => {
  ev.waitUntil(self.skipWaiting());
});

self.addEventListener('message', (ev) => {
  const m = ev.data;
  if (!m || m.type !== 'keep') return;
  const asked = (Array.isArray(m.engine) ? m.engine : []).filter((f) => typeof f === 'string' && FLAVOUR.test(f));
  const flavours = [...new Set(asked.length ? asked : ALL_FLAVOURS)].sort();
  const k = flavours.join(',');
  if (!keeping.has(k))
    keeping.set(
      k,
      keep(flavours)
        .catch(() => false)
        .finally(() => keeping.delete(k)),
    );
  const port = ev.ports?.[0];
  ev.waitUntil(keeping.get(k).then((ok) => port?.postMessage({ type: 'kept', ok })));
});

self.addEventListener('activate', (ev) => {
  ev.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('lnx-') && k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** Only the site's own files are stored (not, say, a dev server's modules on the same origin); the
 *  experiments' documents (data/exp/) too, which the other language's copy needs offline, and the
 *  article's texts (data/text/) that runs on real text load. */
const KEEP = new RegExp(`^${SCOPE.pathname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(index\\.html|embed\\.js|data/((exp|text)/)?[\\w.-]+|wasm/[\\w.-]+)?$`);

async function networkFirst(req) {
  const cache = await caches.open(VERSION);
  try {
    const res = await fetch(req);
    if (res.ok && res.type === 'basic' && (req.mode === 'navigate' || KEEP.test(new URL(req.url).pathname))) await cache.put(req, res.clone());
    return res;
  } catch (e) {
    const hit =
      (await cache.match(req)) ||
      (await cache.match(req, { ignoreSearch: true })) ||
      (req.mode === 'navigate' ? (await cache.match(at(''))) || (await cache.match(at('index.html'))) : undefined);
    if (hit) return hit;
    throw e;
  }
}

async function cacheFirst(req) {
  const cache = await caches.open(VERSION);
  const hit = await cache.match(req);
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok && res.type === 'basic') await cache.put(req, res.clone());
  return res;
}

/** Whether the response to `req` gets the isolation headers: any subresource, and a top-level
 *  document unless it is an embed (see the header). */
function isolates(req) {
  if (req.mode !== 'navigate') return true;
  return req.destination === 'document' && !new URL(req.url).searchParams.has('embed');
}

/** `res` with COOP/COEP added; a redirect or an opaque response as it is. */
function withIsolation(res) {
  if (res.status === 0 || res.type === 'opaqueredirect' || res.type === 'opaque') return res;
  const headers = new Headers(res.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

self.addEventListener('fetch', (ev) => {
  const req = ev.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  if (url.pathname.endsWith('/sw.js')) return;
  const hashed = url.pathname.startsWith(SCOPE.pathname + 'assets/');
  const res = hashed ? cacheFirst(req) : networkFirst(req);
  ev.respondWith(isolates(req) ? res.then(withIsolation) : res);
});
