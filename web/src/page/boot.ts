// page/boot.ts — how the live page starts (main.ts loads this module after the first paint).
//
// The page the build wrote (scripts/prerender.mjs, prerender/StaticPage.svelte) is the page: its
// prose stays as it is, and each part marked [data-island] becomes live on its own (lib/islands.ts:
// near the viewport, reached for, or asked for by the link), one per task:
//   - a figure (its id): page/FigureIsland.svelte, once the article's strings, the precomputed
//     documents and the stored runs are in and the link's run settings applied; the stored runs of
//     its slots that the page held back (island-page.ts heldSlots) are drawn after it, in slices
//     (showHeldRuns: the figure painted first, then the work on each run's document, then the runs);
//   - 'toolbar': the language link (carrying the current view to the other language's copy, and
//     the place in the article) and the theme switch (components/page/Toolbar.svelte);
//   - 'cite': the citation with this page's address (components/page/Citation.svelte);
//   - 'status': the colophon's engine and offline lines (components/page/EngineStatus.svelte).
// Besides the islands: the link's banner (when the link had parameters it could not use), the
// sections' copy-link buttons (one listener for all), the address bar that follows the view, the
// service worker, and the test hook. An embed (?embed=figN) is one figure and no page
// (page/Embed.svelte); where the page has no static copy (the dev server) the copy is drawn here
// first, as the build would have written it.
import './eval-start';
import { flushSync, hydrate, mount, type Component } from 'svelte';
import type { FigureId, Lang } from '../content/types';
import { FIGURE_IDS, figureById } from '../figures/registry';
import { Islands } from '../lib/islands';
import { afterNextPaint, whenIdle, yieldToBrowser } from '../lib/slices';
import { SLOT_NAMES } from '../lib/result-slots.svelte';
import { registerOffline } from '../lib/offline';
import { htmlLang } from '../lib/prefs.svelte';
import { plainHeading as plain } from '../lib/text';
import { loadTex, seedTex } from '../lib/tex';
import { copyHref } from '../prerender/copies';
import Toolbar from '../components/page/Toolbar.svelte';
import Citation from '../components/page/Citation.svelte';
import EngineStatus from '../components/page/EngineStatus.svelte';
import UrlBanner from '../components/common/UrlBanner.svelte';
import FigureIsland from './FigureIsland.svelte';
import { BOX } from '../components/common/chart';
import Embed from './Embed.svelte';
import { LivePage } from './live-page.svelte';
import { asBuilt } from './island-page';
import { saveSpot } from './spot';

const BASE = import.meta.env.BASE_URL;
const isFigure = (name: string): name is FigureId => (FIGURE_IDS as readonly string[]).includes(name);

/** Mount `C` into a detached element, run its effects, then put its nodes where `el`'s were: the
 *  static part stays on the page until the live one is complete (and if building it throws). */
function replaceWith<P extends Record<string, unknown>>(el: HTMLElement, C: Component<P>, props: P) {
  const box = document.createElement('div');
  mount(C, { target: box, props });
  flushSync();
  el.replaceChildren(...box.childNodes);
}

/** Hydrate `C` over the HTML the build rendered of it in `el` (prerender/render.ts): its nodes stay,
 *  nothing is built or laid out again. Where that HTML is not what `C` renders (it differs in
 *  shape), Svelte builds it afresh in its place. */
function hydrateIn<P extends Record<string, unknown>>(el: HTMLElement, C: Component<P>, props: P) {
  hydrate(C, { target: el, props });
  flushSync();
}

/**
 * Draw the reader's stored runs of figure `name`, held until it was live (island-page.ts heldSlots),
 * in slices: first the browser lays out and paints the figure as it was made live (and the section
 * around it, coming into view), then the figure's work on each run's document (FigureDef.prepare)
 * takes a task of its own, then the runs are shown (the figure, its caption, readouts and run list
 * change in one task: never one without the others).
 */
async function showHeldRuns(page: LivePage, name: FigureId) {
  await afterNextPaint();
  for (const step of page.runsToPrepare(name)) {
    step();
    await yieldToBrowser();
  }
  performance.mark(`lnx:runs ${name}`);
  page.showRuns(name);
  flushSync();
  performance.measure(`island ${name}: runs`, `lnx:runs ${name}`);
}

/** Start the live page: an embed, or the islands over the page's static copy (drawn first where
 *  the page has none). */
export async function start() {
  const t0 = performance.now();
  const app = document.getElementById('app')!;
  let copy = app.querySelector<HTMLElement>('[data-prerendered]');
  const page = new LivePage({ lang: (copy?.dataset.prerendered as Lang | undefined) ?? undefined });
  page.followAddress();
  // a hook for the end-to-end and robustness tests (docs/robustness.md): the engine's heap
  (globalThis as Record<string, unknown>).__lnx = {
    memory: () => import('../engine/client').then((c) => c.engineMemory()),
    info: () => import('../engine/client').then((c) => c.engineInfo()),
    loseGpu: () => import('../engine/client').then((c) => c.loseGpu()),
    // any grid config through the figures' own worker path (tests/webgpu compares backends with it)
    grid: (config: object) => import('../engine/client').then((c) => c.runGrid(config as never)),
    // an experiment the same way, with how its runs were batched on WebGPU (tests/webgpu: the phase diagram)
    experiment: async (name: string, config: Record<string, unknown>) => {
      const c = await import('../engine/client');
      let batches: unknown = null;
      const doc = await c.runExperiment(name, config, (_, b) => (batches = b ?? batches));
      return { doc, batches };
    },
  };
  performance.measure('boot: start', { start: t0, end: performance.now() });
  // the page's state (its results, the link applied, the precomputed documents asked for) in this
  // task, its islands (the figures near the viewport prepared, the rest watched) in the next (at
  // desktop speed 16–82 and 3–47 ms, where the two were one task of 43–96 ms: bench/notes/mainthread.md)
  await yieldToBrowser();
  const t1 = performance.now();
  if (page.embed) {
    // the copy is hidden from an embed (index.html): it holds nothing the embed shows
    copy?.remove();
    await loadTex();
    mount(Embed, { target: app, props: { page } });
    return;
  }
  // ?embed= named no figure: the page, whose copy the guard hid for an embed, is shown after all
  document.documentElement.removeAttribute('data-prerender-hidden');
  const drawn = !copy;
  if (!copy) copy = await drawCopy(app, page);
  islandsOver(copy, page, drawn);
  performance.measure('boot: islands', { start: t1, end: performance.now() });
}

/** Where the page has no copy of the article (the dev server): draw it as the build would have. */
async function drawCopy(app: HTMLElement, page: LivePage): Promise<HTMLElement> {
  const [{ default: StaticPage }] = await Promise.all([import('../prerender/StaticPage.svelte'), page.articleReady, page.dataReady, loadTex()]);
  if (!page.article) throw new Error(page.articleError || 'the article did not load');
  const docs = Object.fromEntries(SLOT_NAMES.map((n) => [n, page.results.slot(n).precomputed]));
  const copy = document.createElement('div');
  copy.dataset.prerendered = page.prefs.lang;
  app.replaceChildren(copy);
  // the prose only: its islands are empty, and each is built in its place (islandsOver)
  mount(StaticPage, { target: copy, props: { article: page.article, page: asBuilt(page.article, docs) } });
  flushSync();
  return copy;
}

/** The islands of `copy`; `empty`: the copy was drawn here without them (each is then built, in
 *  turn, without waiting for the viewport: an empty island has no box to watch). */
function islandsOver(copy: HTMLElement, page: LivePage, empty = false) {
  const { t } = page;
  /** the article's strings, the precomputed documents and the stored runs, the link applied */
  const content = Promise.all([page.articleReady, page.dataReady]).then(() => {
    if (!page.article) throw new Error(page.articleError || 'the article did not load');
  });
  /** a figure's: the content, KaTeX for its captions and labels (loaded in a task of its own), and
   *  the numbers its strings quote (computed before the first figure, a few at a time: their first
   *  computation was one task of 15–24 ms CPU at desktop speed, 61–97 ms by a phone's estimate) */
  const figureContent = content
    .then(() => loadTex())
    .then(async () => {
      await yieldToBrowser();
      await page.results.prepareNumbers(page.prefs.lang, yieldToBrowser);
      void page.proseNumbers;
    });
  const other: Lang = page.prefs.lang === 'zh' ? 'en' : 'zh';
  const kinds: Record<string, { prepare: () => Promise<unknown>; mount: (el: HTMLElement) => void }> = {
    toolbar: {
      prepare: () => Promise.resolve(),
      mount: (el) =>
        hydrateIn(el, Toolbar, {
          get lang() {
            return page.prefs.lang;
          },
          get theme() {
            return page.prefs.theme;
          },
          t,
          get href() {
            return `${copyHref(page.prefs.lang, other)}?${page.search(other)}`;
          },
          ontheme: () => page.prefs.toggleTheme(),
          onleave: (ev: MouseEvent) => {
            const running = Object.values({ probe: page.results.probe, grid: page.results.grid, ...page.results.exp }).some((s) => s.run.phase === 'running');
            // a run under way stops with this page: the first click says so, the second switches
            if (running && !page.leaveNote) {
              ev.preventDefault();
              page.leaveNote = t('lang.runStops');
              return;
            }
            const a = ev.currentTarget as HTMLAnchorElement;
            a.href = a.href.replace(/#.*$/, '') + location.hash;
            saveSpot();
            try {
              localStorage.setItem('lnx.lang', other);
            } catch {
              /* private mode: the link's lang= says it */
            }
          },
          get note() {
            return page.leaveNote;
          },
        }),
    },
    cite: {
      prepare: () => content,
      mount: (el) =>
        hydrateIn(el, Citation, {
          t,
          title: plain(page.article!.title),
          url: location.origin + location.pathname,
          get version() {
            return page.results.probe.data?.engine?.version ?? page.results.grid.data?.engine?.version ?? null;
          },
          lang: page.prefs.lang,
        }),
    },
    status: {
      prepare: () => Promise.resolve(),
      mount: (el) =>
        hydrateIn(el, EngineStatus, {
          t,
          get engine() {
            return page.engineReport;
          },
          get offline() {
            return page.offline;
          },
        }),
    },
  };
  const kindOf = (el: HTMLElement) => {
    const name = el.dataset.island ?? '';
    // a figure that draws what the build drew is hydrated; one that draws a run of the reader's, or
    // another view the link asked for, is built afresh in its place (its caption would differ), as
    // is one whose HTML the build changed (a select written as its choice: prerender/fields.ts)
    const hydrates = (e: HTMLElement) => page.asBuilt(name as FigureId) && !e.querySelector('.select-static');
    if (isFigure(name)) {
      // a figure with documents of its own (the composer) has them before it is made live, so that
      // it is hydrated as the build drew it from them
      const own = figureById(name)?.ownFile;
      return {
        prepare: () => (own ? Promise.all([figureContent, own.load()]) : figureContent),
        mount: (e: HTMLElement) => {
          // the widths its charts have on screen (read before anything changes: one layout at most)
          const boxes = [...e.querySelectorAll(`[${BOX}]`)].map((b) => Math.floor(b.getBoundingClientRect().width));
          // its formulas as the build wrote them: rendered again from these, not by KaTeX
          seedTex(e);
          if (hydrates(e)) hydrateIn(e, FigureIsland, { page, id: name, built: true, boxes });
          else replaceWith(e, FigureIsland, { page, id: name, boxes });
          // the reader's stored runs of its slots, held until now (island-page.ts heldSlots): drawn
          // in a task of their own (its island was hydrated as the build drew it, without them);
          // a slot held with none is let go at once (a run another tab writes shows from now on)
          if (!page.holdsRuns(name)) page.showRuns(name);
          else void showHeldRuns(page, name);
        },
      };
    }
    return kinds[name];
  };
  const els = [...copy.querySelectorAll<HTMLElement>('[data-island]')].filter((el) => kindOf(el));
  const islands = new Islands(els, {
    prepare: async (el) => void (await kindOf(el)!.prepare()),
    mount: (el) => kindOf(el)!.mount(el),
    onState: (el, state, error) => state === 'failed' && console.error(`[islands] ${el.dataset.island} stays as the build drew it:`, error),
  }).start();
  const byName = (name: string) => els.find((el) => el.dataset.island === name);
  // the switches answer first; then what the link names (a run it asks for shows its progress)
  for (const name of ['toolbar', ...page.linkedFigures(), 'status']) {
    const el = byName(name);
    if (el) void islands.ask(el);
  }
  if (empty) for (const el of els) void islands.ask(el);

  // the link's parameters it could not use: a banner above the title, once the figures' strings
  // (some reasons are theirs) are there
  if (page.link.issues.length)
    void page.articleReady.then(() => {
      const h1 = copy.querySelector('.masthead h1');
      if (!h1?.parentElement) return;
      mount(UrlBanner, { target: h1.parentElement, anchor: h1, props: { issues: page.link.issues, t, ft: page.issueText, figures: page.embedChoices } });
    });

  // the sections' "copy link" buttons: one listener for all of them
  copy.addEventListener('click', (ev) => {
    const b = (ev.target as Element).closest<HTMLButtonElement>('h2 > button.copy-link');
    const id = b?.closest('section')?.id;
    if (!b || !id) return;
    void page.copyLink(id);
    b.textContent = t('linkCopied');
    setTimeout(() => (b.textContent = '#'), 1600);
  });

  // The engine line in the footer: set once a run has started the engine (subscribing does not
  // start it), updated on a GPU → CPU fallback.
  void import('../engine/client').then((c) => c.onEngineChange((e) => (page.engineReport = e)));
  // the site kept for offline use once the page has what it loads itself and is idle: the worker's
  // few MB then do not share the reader's link with the page's own requests (lib/offline.ts)
  if (import.meta.env.PROD)
    void page.dataReady
      .catch(() => {})
      .then(() => whenIdle())
      .then(() => registerOffline(BASE))
      .then((ok) => (page.offline = ok));
  document.documentElement.lang = htmlLang(page.prefs.lang);
}

// the last statement of the chunk's evaluation (eval-start.ts marked its first)
performance.measure('boot: evaluate', 'lnx:boot-evaluate');
