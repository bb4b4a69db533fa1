// The switches' bar (lib/headroom.ts): where it is after each scroll, as a table.
import { describe, expect, it } from 'vitest';
import { SHOW_AFTER_PX, nextFloat, type Float } from '../../web/src/lib/headroom';

// the slot spans 24…64 px of the document; a window 800 px high
const SLOT: [number, number] = [24, 64];
const step = (s: { state: Float; up: number }, y: number, lastY: number) => nextFloat(s.state, s.up, y, lastY, ...SLOT, 800);

describe('nextFloat', () => {
  it.each<[string, Float, number, number, number, Float]>([
    // what, state, up so far, from, to, next state
    ['at the top it stays in its slot', 'in', 0, 0, 10, 'in'],
    ['its slot still in view', 'in', 0, 10, 40, 'in'],
    ['past its slot, reading down: floats, hidden', 'in', 0, 40, 300, 'hidden'],
    ['reading down', 'hidden', 0, 3000, 3300, 'hidden'],
    ['a small move up is not enough', 'hidden', 0, 3300, 3300 - (SHOW_AFTER_PX - 1), 'hidden'],
    ['up by enough, in one move', 'hidden', 0, 3300, 3300 - SHOW_AFTER_PX, 'shown'],
    ['up by enough over two moves', 'hidden', SHOW_AFTER_PX - 10, 3300, 3290, 'shown'],
    ['shown, up further', 'shown', 0, 3000, 2900, 'shown'],
    ['shown, then down: hidden again', 'shown', 0, 2900, 2901, 'hidden'],
    ['a jump up (a link, a place) is not the thumb', 'hidden', 0, 30000, 2000, 'hidden'],
    ['shown, a jump up hides it', 'shown', 0, 30000, 2000, 'hidden'],
    ['back at its slot: in it again', 'shown', 0, 200, 20, 'in'],
    ['scrolled to the very top from far down', 'hidden', 0, 5000, 0, 'in'],
  ])('%s', (_, state, up, from, to, want) => {
    expect(nextFloat(state, up, to, from, ...SLOT, 800).state).toBe(want);
  });

  it('sums the moves up, and forgets them on a move down', () => {
    let s: { state: Float; up: number } = { state: 'hidden', up: 0 };
    s = step(s, 2980, 3000);
    s = step(s, 2960, 2980);
    expect(s).toEqual({ state: 'hidden', up: 40 });
    s = step(s, 2970, 2960);
    expect(s).toEqual({ state: 'hidden', up: 0 });
    s = step(s, 2950, 2970);
    s = step(s, 2930, 2950);
    expect(s).toEqual({ state: 'hidden', up: 40 });
    s = step(s, 2920, 2930);
    expect(s.state).toBe('shown');
  });
});
