// fragment.ts — a link to a place in the article (#fig4, #depth) lands on it and stays there while
// the page around it is laid out. The sections, test asides and prose blocks off screen are not
// laid out until they near the viewport (app.css: content-visibility: auto, each at an estimated
// size until then),
// so when those above the target take their real sizes after the browser has scrolled to it, the
// target moved away (by 0.5–3 thousand px at phone and desktop width on main at abef7e4; the
// browser's scroll anchoring does not keep it). holdFragment keeps the target's top where a
// fragment puts it, after every change of size of those parts, until the reader scrolls, taps,
// clicks or presses a key, or `ms` have passed; again after each hashchange (a link in the page).
// holdAt holds any element so (page/spot.ts: the reader's place after a reload); keepInPlace keeps
// what the reader sees in place afterwards, as the parts above it take their sizes.
import { FLOATING, keepScroll } from './headroom';

/** The article's sections (the citation's is in an island of its own) */
const SECTIONS = '.article > section, .article > .island > section';
/** The contained parts inside a section that hold blocks of their own (app.css): a hit on one's own
 *  box, its content laid out, is a gap between its blocks */
const HOLDERS = '.article aside.test';
/** What holdFragment watches: the parts whose size is an estimate until they are laid out (the
 *  sections, and in them every block but headings: app.css contains prose blocks and test asides;
 *  the figures, which change size as they go live, are watched with them). */
export const DEFERRED = `${SECTIONS}, .article > section > *, .article aside.test > *`;

/** The reader moving the page: each stops the hold (a link's own click starts a new one). */
const READER = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;

/** How many holds are on (a reload's place, then a link in the page): keepInPlace stands down
 *  meanwhile (a hold keeps its target in place). */
let holding = 0;

/**
 * Keep `target`'s top `at()` px below the viewport's after every change of size of the parts whose
 * size is an estimate until they are laid out (and now), until the reader scrolls, taps, clicks or
 * presses a key, or `ms` have passed. Returns a function that stops it.
 */
export function holdAt(win: Window, target: Element, at: () => number, ms = 8000): () => void {
  if (typeof ResizeObserver === 'undefined') return () => {};
  const keep = () => {
    const d = target.getBoundingClientRect().top - at();
    if (Math.abs(d) >= 1) win.scrollBy(0, d);
  };
  const ro = new ResizeObserver(keep);
  for (const el of win.document.querySelectorAll(DEFERRED)) ro.observe(el);
  const timer = win.setTimeout(() => release(), ms);
  const stop = () => release();
  for (const t of READER) win.addEventListener(t, stop, { capture: true, passive: true });
  holding++;
  let release = () => {
    holding--;
    ro.disconnect();
    win.clearTimeout(timer);
    for (const t of READER) win.removeEventListener(t, stop, { capture: true });
    release = () => {};
  };
  keep();
  return () => release();
}

/** Where a fragment puts `target`: its top at the viewport's, less its scroll margin. */
const marginOf = (win: Window, target: Element) => () => parseFloat(win.getComputedStyle(target).scrollMarginTop) || 0;

/** Go to `target` as a link to it would (at once: a smooth scroll's end is reckoned before the
 *  parts on the way take their sizes), and hold it there as holdFragment does. */
export function landOn(win: Window, target: Element, ms = 8000): () => void {
  target.scrollIntoView({ block: 'start' });
  return holdAt(win, target, marginOf(win, target), ms);
}

/** The element the address's #fragment names; null when none (or a malformed escape). */
export function fragmentTarget(win: Window = window): Element | null {
  let id = '';
  try {
    id = decodeURIComponent(win.location.hash.slice(1));
  } catch {
    return null; // a malformed escape names nothing
  }
  return id ? win.document.getElementById(id) : null;
}

/** `initial: false`: only after a hashchange (the page was put somewhere else first: page/spot.ts). */
export function holdFragment(win: Window = window, ms = 8000, { initial = true } = {}): () => void {
  let release = () => {};
  const hold = () => {
    release();
    const target = fragmentTarget(win);
    if (!target) return;
    release = holdAt(win, target, marginOf(win, target), ms);
  };
  win.addEventListener('hashchange', hold);
  if (initial) hold();
  return () => {
    win.removeEventListener('hashchange', hold);
    release();
  };
}

/** Where to look after a hit on the box of `part` (a section, a test aside) at `y`: just below the
 *  top of its first block that starts lower (in a wrapper that has no box of its own, `display:
 *  contents`, as an island's: its blocks); null when none does. */
function nextBlock(part: Element, y: number): number | null {
  for (const c of part.children) {
    const r = c.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) {
      const t = nextBlock(c, y);
      if (t !== null) return t;
    } else if (r.top > y) return r.top + 1;
  }
  return null;
}

/** Whether the content of `el` (a part with `content-visibility: auto`) is skipped now: its first
 *  child is not rendered. Where the browser cannot tell (no checkVisibility), it is taken as skipped,
 *  as a box met at the viewport's top (not one of its blocks) mostly is. */
function skipped(el: Element): boolean {
  const child = el.firstElementChild;
  if (!child || typeof child.checkVisibility !== 'function') return true;
  return !child.checkVisibility({ contentVisibilityAuto: true });
}

/**
 * The page's own scroll anchoring, over the browser's: what the reader sees at the viewport's top
 * stays there when a part above it takes its real size. Scrolling up from a place a link or a
 * reload landed on, each section and test aside above is laid out only as it nears the viewport,
 * and takes its real size then (a test aside above Figure 4 at phone width: 1,503 px estimated, then
 * 2,369, then 2,884 as its paragraphs are laid out). The browser's anchoring keeps the first box at
 * the viewport's top in place; when that box is one whose content is skipped (the aside, its last
 * 29 px in view), it keeps that box's top, and the box grows downward over what the reader was
 * looking at: the page jumped by 1,156 px (zh) and 1,304 px (en) on a 300 px scroll.
 * Here the anchor is the first element at the top that is not such a box while its content is
 * skipped (the deepest element there, as the browser's; a gap between the blocks of a laid-out
 * part is looked under, not skipped: past a whole test aside in view, the anchor moved with the
 * next section's estimate, and the page by 2,407 px), taken at each scroll and after each change;
 * when one of the parts changes size, the page scrolls by as much as the anchor moved (0 when the
 * browser's anchoring already kept it). Growth below the anchor (a figure's settings opening in view) moves nothing.
 * Stands down while holdFragment holds a link's target. Returns a function that stops it.
 */
export function keepInPlace(win: Window = window): () => void {
  const doc = win.document;
  if (typeof ResizeObserver === 'undefined' || typeof doc.elementFromPoint !== 'function') return () => {};
  let anchor: Element | null = null;
  let top = 0;
  /** the height in the viewport at which the anchor was found */
  let probe = 0;
  const pick = () => {
    anchor = null;
    const x = win.innerWidth / 2;
    let y = 1;
    for (let i = 0; i < 12 && y < win.innerHeight; i++) {
      const el = doc.elementFromPoint(x, y);
      // the page's switches floating over the top (lib/headroom.ts): what is under them
      const over = el?.closest(FLOATING);
      if (over) {
        y = over.getBoundingClientRect().bottom + 1;
        continue;
      }
      if (!el || !el.closest('.article') || el.closest('dialog')) return;
      const r = el.getBoundingClientRect();
      // a section's own box, or a gap between the blocks of a test aside whose content is laid out:
      // look at its next block (one hit test, where 8 px steps took up to ten over a gap); a part
      // whose content is skipped, that starts above the top and ends in the upper half of the
      // viewport: the first thing below it (what the reader sees most of). A block of prose laid out
      // is what it shows: the anchor (it is contained too, app.css, and was taken for a gap: with the
      // top of the viewport in a paragraph that began above it, the search looked 8 px lower in it
      // twelve times, a hit test of the page each, and kept nothing)
      const skips = r.top < 0 && win.getComputedStyle(el).getPropertyValue('content-visibility') === 'auto';
      if (el.matches(SECTIONS) || (skips && el.matches(HOLDERS) && !skipped(el))) y = nextBlock(el, y) ?? y + 8;
      else if (skips && r.bottom < win.innerHeight / 2) y = r.bottom + 1;
      else {
        anchor = el;
        top = r.top;
        probe = y;
        return;
      }
    }
  };
  // After a change of size the anchor is taken again only when it is no longer where it was found:
  // looking for it takes hit tests of the whole page (elementFromPoint), which each step of Figure 1
  // (its figure changes size below the reader's top) would otherwise pay.
  const fix = () => {
    if (holding === 0 && anchor?.isConnected) {
      const d = anchor.getBoundingClientRect().top - top;
      if (Math.abs(d) >= 1) keepScroll(win, d);
      const r = anchor.getBoundingClientRect();
      if (Math.abs(r.top - top) < 1 && r.top <= probe && r.bottom > probe) return;
    }
    pick();
  };
  const ro = new ResizeObserver(fix);
  for (const el of doc.querySelectorAll(DEFERRED)) ro.observe(el);
  win.addEventListener('scroll', pick, { passive: true });
  // (the first anchor is taken when the observer first reports, after the first layout: no layout
  // is forced here, while the page is still being parsed and painted)
  return () => {
    ro.disconnect();
    win.removeEventListener('scroll', pick);
  };
}
