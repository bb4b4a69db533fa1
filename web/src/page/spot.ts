// page/spot.ts — the reader's place in the article, carried across a switch of language. The two
// languages' copies are two pages (prerender/copies.ts) built from one skeleton (content/skeleton.ts):
// section ids and the order of blocks in a section are the same in both, so "the block at the top
// of the window, and how far into it" names the same place in the other language. saveSpot() keeps
// it in sessionStorage just before the language link is followed (page/boot.ts); main.ts calls
// restoreSpot() on the next page, which scrolls there and forgets it (not when that page's address
// has a #fragment: it says where to go). A spot older than SPOT_TTL_MS is dropped.
// Leaves out: the view state (figures' steps, run settings), which the link's query carries.
const KEY = 'lnx.spot';
export const SPOT_TTL_MS = 20000;

export interface Spot {
  /** the section's id */
  section: string;
  /** the block: its index among the section's children */
  block: number;
  /** how far into the block the window's top edge was, 0…1 */
  into: number;
  /** Date.now() when it was saved */
  at: number;
}

/** Is `x` a spot read back from storage, fresh at `now`? Pure. */
export function freshSpot(x: unknown, now: number): x is Spot {
  const s = x as Spot | null;
  return (
    !!s &&
    typeof s.section === 'string' &&
    Number.isInteger(s.block) &&
    s.block >= 0 &&
    typeof s.into === 'number' &&
    s.into >= 0 &&
    s.into <= 1 &&
    typeof s.at === 'number' &&
    now - s.at >= 0 &&
    now - s.at < SPOT_TTL_MS
  );
}

/** An element's box; an island's wrapper (display: contents) has none: its first child's then. */
const box = (el: Element): DOMRect | null =>
  el.getClientRects().length ? el.getBoundingClientRect() : (el.firstElementChild?.getBoundingClientRect() ?? null);

const sections = () => [...document.querySelectorAll<HTMLElement>('main.article > section[id]')];

/** Keep the block at the top of the window (nothing when the page is scrolled to its top). */
export function saveSpot() {
  if (scrollY < 40) return;
  for (const s of sections()) {
    const r = s.getBoundingClientRect();
    if (r.bottom <= 0) continue;
    const blocks = [...s.children];
    const i = blocks.findIndex((b) => (box(b)?.bottom ?? -1) > 0);
    const b = i >= 0 ? box(blocks[i]) : null;
    if (!b) return;
    const spot: Spot = { section: s.id, block: i, into: b.height > 0 ? Math.min(1, Math.max(0, -b.top / b.height)) : 0, at: Date.now() };
    try {
      sessionStorage.setItem(KEY, JSON.stringify(spot));
    } catch {
      /* no sessionStorage: the page opens at its top */
    }
    return;
  }
}

/** Scroll to the spot saved by the page the reader came from, if any, and forget it. */
export function restoreSpot() {
  let spot: unknown = null;
  try {
    spot = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    sessionStorage.removeItem(KEY);
  } catch {
    return;
  }
  if (!freshSpot(spot, Date.now()) || location.hash) return;
  const section = document.getElementById(spot.section);
  const block = section?.parentElement?.matches('main.article') ? section.children[spot.block] : null;
  const b = block ? box(block) : null;
  if (b) scrollTo(0, scrollY + b.top + spot.into * b.height);
}
