// fragment.ts — a link to a place in the article (#fig4, #depth) lands on it and stays there while
// the page around it is laid out. The sections, test asides and prose blocks off screen are not
// laid out until they near the viewport (app.css: content-visibility: auto, each at an estimated
// size until then),
// so when those above the target take their real sizes after the browser has scrolled to it, the
// target moved away (by 0.5–3 thousand px at phone and desktop width on main at abef7e4; the
// browser's scroll anchoring does not keep it). holdFragment keeps the target's top where a
// fragment puts it, after every change of size of those parts, until the reader scrolls, taps,
// clicks or presses a key, or `ms` have passed; again after each hashchange (a link in the page).
// Returns a function that stops it.

/** What holdFragment watches: the parts whose size is an estimate until they are laid out (the
 *  sections, and in them every block but headings: app.css contains prose blocks and test asides;
 *  the figures, which change size as they go live, are watched with them). */
export const DEFERRED = '.article > section, .article > .island > section, .article > section > *, .article aside.test > *';

/** The reader moving the page: each stops the hold (a link's own click starts a new one). */
const READER = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;

export function holdFragment(win: Window = window, ms = 8000): () => void {
  const doc = win.document;
  let release = () => {};
  const hold = () => {
    release();
    let id = '';
    try {
      id = decodeURIComponent(win.location.hash.slice(1));
    } catch {
      return; // a malformed escape names nothing
    }
    const target = id ? doc.getElementById(id) : null;
    if (!target || typeof ResizeObserver === 'undefined') return;
    // where a fragment puts it: its top at the viewport's, less its scroll margin
    const at = () => parseFloat(win.getComputedStyle(target).scrollMarginTop) || 0;
    const keep = () => {
      const d = target.getBoundingClientRect().top - at();
      if (Math.abs(d) >= 1) win.scrollBy(0, d);
    };
    const ro = new ResizeObserver(keep);
    for (const el of doc.querySelectorAll(DEFERRED)) ro.observe(el);
    const timer = win.setTimeout(() => release(), ms);
    const stop = () => release();
    for (const t of READER) win.addEventListener(t, stop, { capture: true, passive: true });
    release = () => {
      ro.disconnect();
      win.clearTimeout(timer);
      for (const t of READER) win.removeEventListener(t, stop, { capture: true });
      release = () => {};
    };
    keep();
  };
  win.addEventListener('hashchange', hold);
  hold();
  return () => {
    win.removeEventListener('hashchange', hold);
    release();
  };
}
