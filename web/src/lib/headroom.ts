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
// Which way the reader moves is read from the reader's input (the wheel, a finger on the screen, the
// keys that scroll), not from the scroll offset: the page scrolls itself too (a link's or a
// reload's place held, and, as the reader scrolls up, what is in view kept in place while a part
// above takes its size: lib/fragment.ts and the browser's own anchoring scroll down then), and the
// bar came and went on each of those. The page going somewhere at once (a link, "Train it", the
// place after a switch of language) hides it, so that it does not cover the top of where it went.
// Leaves out: the switches themselves (components/page/Toolbar.svelte).

/** What floats over the top of the window while the bar is out of its slot (app.css `[data-float]`):
 *  lib/fragment.ts keepInPlace looks under it. */
export const FLOATING = '[data-float] > *';

/** Where the switches are: in their slot, or floating, hidden or shown. */
export type Float = 'in' | 'hidden' | 'shown';

/** How far up (px, summed over the reader's moves) the reader scrolls before the bar comes back:
 *  a small move of the thumb or the wheel. */
export const SHOW_AFTER_PX = 48;

/**
 * The switches' next state at scroll offset `y`, after a move of the reader's `move` px (down > 0,
 * up < 0; 0: the page scrolled without one, e.g. itself, or a fling going on), and the distance
 * moved up so far (`up`). `slotTop`/`slotBottom`: the slot's document offsets. In the slot while it
 * is in view at the top; past it, hidden on any move down, shown after SHOW_AFTER_PX up. Pure.
 */
export function nextFloat(state: Float, up: number, move: number, y: number, slotTop: number, slotBottom: number): { state: Float; up: number } {
  if (y <= slotTop || (state === 'in' && y < slotBottom)) return { state: 'in', up: 0 };
  if (move > 0) return { state: 'hidden', up: 0 };
  if (move === 0) return { state: state === 'in' ? 'hidden' : state, up };
  const sum = up - move;
  if (state === 'shown' || sum >= SHOW_AFTER_PX) return { state: 'shown', up: 0 };
  return { state: 'hidden', up: sum };
}

/** How long after the reader's last move a long scroll is still the reader's (a fling), not the
 *  page going somewhere. */
export const JUMP_QUIET_MS = 300;

/**
 * Whether a scroll of `dy` px, `sinceMove` ms after the reader's last move, is the page going
 * somewhere (a link, "Train it", the place after a switch of language): a window's `height` or more
 * at once, not while the reader moves it, and not the page keeping what is in view in place while a
 * part above takes its size (`kept`: lib/fragment.ts keepInPlace, through keepScroll). Pure.
 * Before `kept`, a test aside laid out more than JUMP_QUIET_MS after a wheel step up on a loaded
 * machine grew by 1,156 px above the reader; keeping the page in place scrolled it down by as
 * much, and the bar the step had shown went (seen once in seven fresh clones' e2e runs).
 */
export function goesSomewhere(dy: number, height: number, sinceMove: number, kept: boolean): boolean {
  return !kept && Math.abs(dy) > height && sinceMove > JUMP_QUIET_MS;
}

/** The offset the page's last scroll to keep what is in view in place left, per window. */
const keptAt = new WeakMap<Window, number>();

/** Scroll by `dy` to keep what is in view in place (lib/fragment.ts keepInPlace): the scroll event
 *  that ends there is not the page going somewhere. */
export function keepScroll(win: Window, dy: number): void {
  win.scrollBy(0, dy);
  keptAt.set(win, win.scrollY);
}

/** The keys that scroll the page, and which way (not when a control has them: a slider's arrows). */
const KEY_MOVE: Readonly<Record<string, number>> = { ArrowUp: -SHOW_AFTER_PX, PageUp: -SHOW_AFTER_PX, Home: -SHOW_AFTER_PX, ArrowDown: 1, PageDown: 1, End: 1 };

/** Float the part `slot` (the toolbar's island wrapper) holds. Returns a function that stops it. */
export function headroom(slot: HTMLElement, win: Window = window): () => void {
  let state: Float = 'in';
  let up = 0;
  let touchY: number | null = null;
  // the last offset a scroll event saw, and when the reader last moved the page
  let lastY = win.scrollY;
  let movedAt = -Infinity;
  // the slot's offsets, read when first needed (no layout forced while the page starts); the slot
  // is at the top of the page, above every part that changes size
  let span: [number, number] | null = null;
  const step = (move: number) => {
    const y = win.scrollY;
    if (!span) {
      const r = slot.getBoundingClientRect();
      span = [r.top + y, r.bottom + y];
    }
    const next = nextFloat(state, up, move, y, span[0], span[1]);
    up = next.up;
    if (next.state === state) return;
    state = next.state;
    if (state === 'in') delete slot.dataset.float;
    else slot.dataset.float = state;
  };
  // a move of the reader's
  const input = (move: number) => {
    movedAt = performance.now();
    step(move);
  };
  const unit = (ev: WheelEvent) => (ev.deltaMode === 1 ? 16 : ev.deltaMode === 2 ? win.innerHeight : 1);
  const on: [string, EventListener][] = [
    [
      'scroll',
      () => {
        // the page going somewhere, a window's height or more at once and not while the reader
        // moves it (a link, "Train it", the place after a switch of language): the bar goes, or it
        // would cover the top of what the page went to
        const y = win.scrollY;
        const kept = keptAt.get(win) === y;
        keptAt.delete(win);
        const jump = goesSomewhere(y - lastY, win.innerHeight, performance.now() - movedAt, kept);
        lastY = y;
        step(jump ? 1 : 0);
      },
    ],
    ['wheel', (ev) => (ev as WheelEvent).deltaY !== 0 && input((ev as WheelEvent).deltaY * unit(ev as WheelEvent))],
    ['touchstart', (ev) => (touchY = (ev as TouchEvent).touches[0]?.clientY ?? null)],
    [
      'touchmove',
      (ev) => {
        const y = (ev as TouchEvent).touches[0]?.clientY;
        if (y === undefined || touchY === null) return;
        // the finger moving down the screen scrolls the page up
        if (y !== touchY) input(touchY - y);
        touchY = y;
      },
    ],
    [
      'keydown',
      (ev) => {
        const k = ev as KeyboardEvent;
        const t = k.target as Element | null;
        // not a key a control takes (a slider's arrows, a field's text), nor one pressed in the bar
        if (k.defaultPrevented || slot.contains(t) || t?.closest?.('input, select, textarea, [role="slider"], [contenteditable]')) return;
        // the space bar presses a button or a link that has the focus; elsewhere it scrolls
        const space = k.key === ' ' && !t?.closest?.('button, a[href], summary');
        const move = space ? (k.shiftKey ? -SHOW_AFTER_PX : 1) : KEY_MOVE[k.key];
        if (move) input(move);
      },
    ],
  ];
  for (const [type, f] of on) win.addEventListener(type, f, { passive: true });
  // a key that moves the focus into the hidden bar shows it
  const onFocus = () => state === 'hidden' && step(-SHOW_AFTER_PX);
  slot.addEventListener('focusin', onFocus);
  return () => {
    for (const [type, f] of on) win.removeEventListener(type, f);
    slot.removeEventListener('focusin', onFocus);
  };
}
