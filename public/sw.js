/*
 * sw.js — offline after the first visit, and cross-origin isolation on any static host. Registered
 * by the page in production builds, never from an embed: by web/src/lib/isolation.ts before the
 * live page mounts where the page is not isolated yet, by web/src/lib/offline.ts once it has
 * mounted. Everything the page needs is self-hosted, so one cache holds the whole site:
 *
 *   install  → precache: the page and the other languages' copies it names (zh/), the engine
 *              (wasm/*), the precomputed results (data/*), embed.js,
 *              and every built asset reachable from index.html (JS chunks of both languages, the
 *              engine worker, CSS, the KaTeX woff2 fonts), found by reading the files for
 *              "name-HASH.ext" references — no build step has to list them.
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
const VERSION = 'lnx-v3';
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
  'wasm/lnx-st.mjs',
  'wasm/lnx-st.wasm',
  'wasm/lnx-mt.mjs',
  'wasm/lnx-mt.wasm',
  'wasm/lnx-mt.worker.js',
  // the FMA flavours, which a browser with relaxed SIMD loads (engine/backend-choice.ts cpuGlue)
  'wasm/lnx-st-fma.mjs',
  'wasm/lnx-st-fma.wasm',
  'wasm/lnx-mt-fma.mjs',
  'wasm/lnx-mt-fma.wasm',
  'wasm/lnx-mt-fma.worker.js',
  'wasm/package.json',
];
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

async function precache() {
  const cache = await caches.open(VERSION);
  const seen = new Set();
  const queue = [];
  for (const p of PUBLIC) {
    const res = await put(cache, at(p));
    seen.add(at(p));
    if (!res || (p !== '' && p !== 'index.html')) continue;
    const html = await res.text();
    queue.push(html);
    // the other languages' copies the page names (data-copies, scripts/prerender.mjs: zh/): the
    // language link opens one, offline too
    for (const copy of copiesOf(html)) {
      const url = at(copy);
      if (seen.has(url)) continue;
      seen.add(url);
      const c = await put(cache, url);
      if (c) queue.push(await c.text());
    }
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
}

self.addEventListener('install', (ev) => {
  ev.waitUntil(precache().then(() => self.skipWaiting()));
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
