// headroom.ts — the page's switches (the language link, the theme) within reach anywhere in the
// article: at the top they sit where the build wrote them, in the masthead; once the reader has
// scrolled past them, they come back as a bar at the top of the window whenever the reader scrolls
// up (and go while the reader reads on, down), as a phone's browser shows its own address bar.
// A reader switching language mid-article then does it where they are reading, and page/spot.ts
// carries that place to the other copy; before, the switches were only at the top, and the place
// carried was the top.
// The bar is the toolbar itself, fixed (app.css `[data-float]`): its slot in the masthead keeps its
// height, so nothing moves when it leaves the flow. Its state is an attribute of the island's
// wrapper, which stays when the island becomes live. Pure state logic in `nextFloat`.
// Leaves out: the switches themselves (components/page/Toolbar.svelte).

/** Where the switches are: in their slot, or floating, hidden or shown. */
export type Float = 'in' | 'hidden' | 'shown';

/** How far up (px, summed over scroll events) the reader scrolls before the bar comes back: a
 *  small move of the thumb, not the page keeping what the reader sees in place. */
export const SHOW_AFTER_PX = 48;

/**
 * The switches' next state after a scroll to `y` from `lastY`, and the distance scrolled up so far
 * (`up`). `slotTop`/`slotBottom`: the slot's document offsets; `jump`: a move longer than this in
 * one scroll event is the page going somewhere (a link, a reload's place), not the reader's thumb.
 * Back in the slot once it is in view again at the top; shown after SHOW_AFTER_PX up; hidden on
 * any move down and after a jump. Pure.
 */
export function nextFloat(
  state: Float,
  up: number,
  y: number,
  lastY: number,
  slotTop: number,
  slotBottom: number,
  jump = Infinity,
): { state: Float; up: number } {
  if (y <= slotTop) return { state: 'in', up: 0 };
  if (state === 'in' && y < slotBottom) return { state: 'in', up: 0 };
  const dy = y - lastY;
  if (dy > 0 || -dy > jump) return { state: 'hidden', up: 0 };
  const sum = up - dy;
  if (state === 'shown' || sum >= SHOW_AFTER_PX) return { state: 'shown', up: 0 };
  return { state: state === 'in' ? 'hidden' : state, up: sum };
}

/** Float the part `slot` (the toolbar's island wrapper) holds. Returns a function that stops it. */
export function headroom(slot: HTMLElement, win: Window = window): () => void {
  let state: Float = 'in';
  let up = 0;
  let lastY = win.scrollY;
  // the slot's offsets, read at the first scroll (no layout forced while the page starts); the
  // slot is at the top of the page, above every part that changes size
  let span: [number, number] | null = null;
  const set = (s: Float) => {
    if (s === state) return;
    state = s;
    if (s === 'in') delete slot.dataset.float;
    else slot.dataset.float = s;
  };
  const onScroll = () => {
    const y = win.scrollY;
    if (!span) {
      const r = slot.getBoundingClientRect();
      span = [r.top + y, r.bottom + y];
    }
    const next = nextFloat(state, up, y, lastY, span[0], span[1], win.innerHeight);
    lastY = y;
    up = next.up;
    set(next.state);
  };
  // a key that moves the focus into the hidden bar shows it
  const onFocus = () => state === 'hidden' && set('shown');
  win.addEventListener('scroll', onScroll, { passive: true });
  slot.addEventListener('focusin', onFocus);
  return () => {
    win.removeEventListener('scroll', onScroll);
    slot.removeEventListener('focusin', onFocus);
  };
}
