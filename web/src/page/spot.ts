// page/spot.ts — the reader's place in the article, carried across a switch of language and kept
// for a reload. The two languages' copies are two pages (prerender/copies.ts) built from one
// skeleton (content/skeleton.ts): section ids and the order of blocks in a section are the same in
// both, so "the block at the top of the window, and how far into it" names the same place in the
// other language. saveSpot() keeps it in sessionStorage just before the language link is followed
// (page/boot.ts); main.ts calls restoreSpot() on the next page, which scrolls there and forgets it
// (not when that page's address has a #fragment: it says where to go). A spot older than
// SPOT_TTL_MS is dropped.
// keepPlace() keeps the same for this page whenever it is hidden or left (a reload, a phone's
// browser discarding the tab in the background and loading it again when the reader comes back),
// and restoreSpot() goes back there on a reload or a return through the history. The browser's own
// restoration puts back the scroll offset, which names another place: the parts above are laid out
// at estimated sizes until they near the viewport (app.css content-visibility), so a reader 5,600,
// 14,400, 24,000 or 40,000 px down at phone width in zh was 270, 1,500, 4,900 and 16,300 px away
// from their place after a reload.
// Leaves out: the view state (figures' steps, run settings), which the link's query carries.
import { holdAt } from '../lib/fragment';

const KEY = 'lnx.spot';
export const SPOT_TTL_MS = 20000;
/** this page's own place (the key ends with its path: each language's copy has its own) */
const PLACE = 'lnx.place:';
/** a place older than this is not gone back to (a tab reopened the next week starts at the top) */
export const PLACE_TTL_MS = 24 * 3600 * 1000;

export interface Spot {
  /** the section's id */
  section: string;
  /** the block: its index among the section's children */
  block: number;
  /** in a test aside, the block inside it: its index among the aside's children */
  sub?: number;
  /** how far into the block the window's top edge was, 0…1 */
  into: number;
  /** or how far below the window's top edge the block started, px (then `into` is 0) */
  dy?: number;
  /** Date.now() when it was saved */
  at: number;
}

/** Is `x` a spot read back from storage, fresh at `now` (saved less than `ttl` ms before)? Pure. */
export function freshSpot(x: unknown, now: number, ttl = SPOT_TTL_MS): x is Spot {
  const s = x as Spot | null;
  return (
    !!s &&
    typeof s.section === 'string' &&
    Number.isInteger(s.block) &&
    s.block >= 0 &&
    (s.sub === undefined || (Number.isInteger(s.sub) && s.sub >= 0)) &&
    (s.dy === undefined || (typeof s.dy === 'number' && s.dy >= 0 && s.dy < 100000)) &&
    typeof s.into === 'number' &&
    s.into >= 0 &&
    s.into <= 1 &&
    typeof s.at === 'number' &&
    now - s.at >= 0 &&
    now - s.at < ttl
  );
}

/** An element's box; an island's wrapper (display: contents) has none: its first child's then. */
const box = (el: Element): DOMRect | null =>
  el.getClientRects().length ? el.getBoundingClientRect() : (el.firstElementChild?.getBoundingClientRect() ?? null);

const sections = () => [...document.querySelectorAll<HTMLElement>('main.article > section[id]')];

/** The block at the top of the window, or in a test aside there the block inside it, and how far
 *  into it the window's top is (null when the page is scrolled to its top). `whole`: the first such
 *  block that starts in the window instead, and how far below the window's top it starts (`dy`):
 *  the view from it down is then the same however the block above changed size (a figure gone
 *  live, a paragraph laid out); the block at the top as before when none starts in the window. */
function spotHere(whole = false): Spot | null {
  if (scrollY < 40) return null;
  let over: Spot | null = null;
  for (const s of sections()) {
    if (s.getBoundingClientRect().bottom <= 0) continue;
    for (let i = 0; i < s.children.length; i++) {
      const block = s.children[i];
      const inner = block.matches('aside.test') ? [...block.children] : [null];
      for (let k = 0; k < inner.length; k++) {
        const el = inner[k] ?? block;
        const b = box(el);
        if (!b || b.bottom <= 0) continue;
        const sub = inner[k] ? { sub: k } : {};
        if (!over) {
          over = { section: s.id, block: i, ...sub, into: b.height > 0 ? Math.min(1, Math.max(0, -b.top / b.height)) : 0, at: Date.now() };
          if (!whole) return over;
        }
        if (b.top >= 0) return b.top < innerHeight ? { section: s.id, block: i, ...sub, into: 0, dy: b.top, at: Date.now() } : over;
      }
    }
  }
  return over;
}

/** The element a spot names, one with a box of its own (an island's wrapper has none: its child). */
function spotElement(spot: Spot): Element | null {
  const section = document.getElementById(spot.section);
  let el = section?.parentElement?.matches('main.article') ? (section.children[spot.block] ?? null) : null;
  if (el && spot.sub !== undefined) el = el.matches('aside.test') ? (el.children[spot.sub] ?? null) : null;
  if (el && !el.getClientRects().length) el = el.firstElementChild;
  return el;
}

function store(key: string, spot: Spot | null) {
  try {
    if (spot) sessionStorage.setItem(key, JSON.stringify(spot));
    else sessionStorage.removeItem(key);
  } catch {
    /* no sessionStorage: the page opens at its top */
  }
}

function take(key: string, forget: boolean): unknown {
  try {
    const x: unknown = JSON.parse(sessionStorage.getItem(key) ?? 'null');
    if (forget) sessionStorage.removeItem(key);
    return x;
  } catch {
    return null;
  }
}

/** Keep the block at the top of the window for the other language's copy (nothing at the top). */
export function saveSpot() {
  const spot = spotHere();
  if (spot) store(KEY, spot);
}

/** Keep this page's place whenever it is hidden or left, for a reload or a return (nothing kept at
 *  the top: a reload there stays there). */
export function keepPlace() {
  const save = () => store(PLACE + location.pathname, spotHere(true));
  addEventListener('pagehide', save);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && save());
}

/** Scroll to the spot saved by the page the reader came from, or, on a reload or a return through
 *  the history, to this page's own place; hold it there while the parts above take their sizes.
 *  Returns whether it did. */
export function restoreSpot(): boolean {
  // the page puts the reader back itself: the browser's restored offset would be another place
  if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
  const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  const again = nav?.type === 'reload' || nav?.type === 'back_forward';
  const now = Date.now();
  const lang = take(KEY, true);
  // a place is gone back to by a reload of this visit, not by a later visit's first load
  const place = take(PLACE + location.pathname, !again);
  const spot = freshSpot(lang, now) && !location.hash ? lang : again && freshSpot(place, now, PLACE_TTL_MS) ? place : null;
  const el = spot ? spotElement(spot) : null;
  if (!spot || !el) return false;
  const at = () => spot.dy ?? -spot.into * el.getBoundingClientRect().height;
  // (scrollIntoView first: a block in a test aside the browser skips is laid out only so)
  el.scrollIntoView({ block: 'start' });
  scrollBy(0, el.getBoundingClientRect().top - at());
  holdAt(window, el, at);
  return true;
}
