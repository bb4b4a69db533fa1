// The switches' bar (lib/headroom.ts): where it is after each scroll and each move of the reader, as a table.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JUMP_QUIET_MS, SHOW_AFTER_PX, goesSomewhere, headroom, keepScroll, nextFloat, type Float } from '../../web/src/lib/headroom';

// the slot spans 24…64 px of the document
const SLOT: [number, number] = [24, 64];

describe('nextFloat', () => {
  it.each<[string, Float, number, number, number, Float]>([
    // what, state, up so far, the reader's move (0: a scroll without one), offset after, next state
    ['at the top it stays in its slot', 'in', 0, 10, 10, 'in'],
    ['its slot still in view', 'in', 0, 30, 40, 'in'],
    ['past its slot, reading down: floats, hidden', 'in', 0, 260, 300, 'hidden'],
    ['past its slot by a scroll of the page itself (a link): floats, hidden', 'in', 0, 0, 9000, 'hidden'],
    ['reading down', 'hidden', 0, 300, 3300, 'hidden'],
    ['a small move up is not enough', 'hidden', 0, -(SHOW_AFTER_PX - 1), 3253, 'hidden'],
    ['up by enough, in one move', 'hidden', 0, -SHOW_AFTER_PX, 3252, 'shown'],
    ['up by enough over two moves', 'hidden', SHOW_AFTER_PX - 10, -10, 3290, 'shown'],
    ['shown, up further', 'shown', 0, -100, 2900, 'shown'],
    ['shown, then down: hidden again', 'shown', 0, 1, 2901, 'hidden'],
    ['shown, the page scrolls itself down (a part above laid out): still shown', 'shown', 0, 0, 4000, 'shown'],
    ['hidden, the page scrolls itself up (a hold): still hidden', 'hidden', 0, 0, 1000, 'hidden'],
    ['back at its slot: in it again', 'shown', 0, -180, 20, 'in'],
    ['back at the very top by the page itself', 'hidden', 0, 0, 0, 'in'],
  ])('%s', (_, state, up, move, y, want) => {
    expect(nextFloat(state, up, move, y, ...SLOT).state).toBe(want);
  });

  it('sums the moves up, keeps the sum over the page scrolling itself, and forgets it on a move down', () => {
    let s: { state: Float; up: number } = { state: 'hidden', up: 0 };
    const step = (move: number, y: number) => (s = nextFloat(s.state, s.up, move, y, ...SLOT));
    step(-20, 2980);
    step(0, 3100); // what is in view kept in place while a part above takes its size
    step(-20, 3080);
    expect(s).toEqual({ state: 'hidden', up: 40 });
    step(10, 3090);
    expect(s).toEqual({ state: 'hidden', up: 0 });
    step(-20, 3070);
    step(-20, 3050);
    expect(s).toEqual({ state: 'hidden', up: 40 });
    step(-10, 3040);
    expect(s.state).toBe('shown');
  });
});

describe('goesSomewhere', () => {
  it.each<[string, number, number, boolean, boolean]>([
    // what, scrolled (px), ms since the reader's last move, kept (lib/fragment.ts), going somewhere
    ['a link: a long scroll while the reader is still', 9000, 5000, false, true],
    ['the reader flinging the page', -2000, 100, false, false],
    ['a short scroll of the page itself', 500, 5000, false, false],
    ['what is in view kept in place, late after a wheel step', 1156, 350, true, false],
    ['the same, not marked as kept', 1156, 350, false, true],
  ])('%s', (_, dy, since, kept, want) => {
    expect(goesSomewhere(dy, 800, since, kept)).toBe(want);
  });
  it('takes a move within JUMP_QUIET_MS as the reader’s', () => {
    expect(goesSomewhere(5000, 800, JUMP_QUIET_MS, false)).toBe(false);
    expect(goesSomewhere(5000, 800, JUMP_QUIET_MS + 1, false)).toBe(true);
  });
});

describe('headroom over a window', () => {
  // a window with a scroll offset whose scroll events are dispatched when the test says (a frame)
  const setup = () => {
    const win = Object.assign(new EventTarget(), { scrollY: 5000, innerHeight: 800 }) as EventTarget & { scrollY: number; innerHeight: number };
    (win as unknown as { scrollBy: (x: number, y: number) => void }).scrollBy = (_x, y) => (win.scrollY += y);
    const slot = Object.assign(new EventTarget(), {
      dataset: {} as Record<string, string>,
      getBoundingClientRect: () => ({ top: 24 - win.scrollY, bottom: 64 - win.scrollY }),
    });
    const stop = headroom(slot as unknown as HTMLElement, win as unknown as Window);
    let now = 1000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const frame = () => win.dispatchEvent(new Event('scroll'));
    return { win, slot, stop, wait: (ms: number) => (now += ms), frame };
  };
  afterEach(() => vi.restoreAllMocks());

  it('keeps the bar a wheel step up showed while the page keeps what is in view in place, late', () => {
    const { win, slot, stop, wait, frame } = setup();
    win.dispatchEvent(Object.assign(new Event('wheel'), { deltaY: -300, deltaMode: 0 }));
    win.scrollY -= 300;
    frame();
    expect(slot.dataset.float).toBe('shown');
    wait(350);
    keepScroll(win as unknown as Window, 1156);
    frame();
    expect(slot.dataset.float).toBe('shown');
    // the same scroll made by anything else is the page going somewhere: the bar goes
    wait(350);
    (win as unknown as Window).scrollBy(0, 1156);
    frame();
    expect(slot.dataset.float).toBe('hidden');
    stop();
  });
});
