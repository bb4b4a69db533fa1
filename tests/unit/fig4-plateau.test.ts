// Figure 4's plateau-share strip: the share of a line's seeds still on the plateau at each step,
// given at its changes (documents.ts leavesPlateauAt, transform.ts plateauShare).
import { describe, expect, it } from 'vitest';
import { leavesPlateauAt, PLATEAU_DROP } from '../../web/src/engine/documents';
import { plateauShare } from '../../web/src/figures/fig4/transform';

const P = 5; // the plateau
const on = P; // a loss on it
const off = P - PLATEAU_DROP - 0.01; // a loss that has left it

describe('leavesPlateauAt', () => {
  it.each([
    { curve: [on, on, off, on], at: 3 },
    { curve: [on, on, on], at: null },
    { curve: [off], at: 1 },
    { curve: [P - PLATEAU_DROP], at: null }, // exactly the drop is not below it
    { curve: [], at: null },
  ])('$curve → $at', ({ curve, at }) => expect(leavesPlateauAt(curve, P)).toBe(at));
});

describe('plateauShare', () => {
  it.each([
    { name: 'no seeds', losses: [], want: [] },
    {
      name: 'one seed that never leaves',
      losses: [[on, on, on]],
      want: [
        { x: 1, y: 1 },
        { x: 3, y: 1 },
      ],
    },
    {
      name: 'one seed that leaves at step 2',
      losses: [[on, off, off]],
      want: [
        { x: 1, y: 1 },
        { x: 2, y: 0 },
        { x: 3, y: 0 },
      ],
    },
    {
      name: 'two seeds leaving at 2 and 4',
      losses: [
        [on, off, on, on, on],
        [on, on, on, off, off],
      ],
      // a seed that has left stays counted as left, even if its loss comes back up
      want: [
        { x: 1, y: 1 },
        { x: 2, y: 0.5 },
        { x: 4, y: 0 },
        { x: 5, y: 0 },
      ],
    },
    {
      name: 'a seed that stopped early (diverged) stops counting',
      losses: [
        [on, on],
        [on, on, on, on],
      ],
      want: [
        { x: 1, y: 1 },
        { x: 4, y: 1 },
      ],
    },
    {
      name: 'the seed still counted leaves after the other stopped',
      losses: [[on], [on, on, off]],
      want: [
        { x: 1, y: 1 },
        { x: 3, y: 0 },
      ],
    },
  ])('$name', ({ losses, want }) => expect(plateauShare(losses, P)).toEqual(want));

  it('draws nothing without a plateau', () => expect(plateauShare([[1, 2]], NaN)).toEqual([]));
});
