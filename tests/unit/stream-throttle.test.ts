// The throttle between a streaming grid and the page (web/src/engine/stream-throttle.ts), as a table:
// updates offered at times t (ms), which were handed on.
import { describe, expect, it } from 'vitest';
import { throttle } from '../../web/src/engine/stream-throttle';

type P = { n: number; paused: boolean };

function run(ms: number, offers: [t: number, p: P][], flushAt?: number) {
  let t = 0;
  const shown: [number, number][] = [];
  const th = throttle<P>(
    ms,
    () => t,
    (p) => shown.push([t, p.n]),
  );
  for (const [at, p] of offers) {
    t = at;
    th.offer(p);
  }
  if (flushAt != null) {
    t = flushAt;
    th.flush();
  }
  return shown;
}
const up = (n: number, paused = false): P => ({ n, paused });

describe('throttle', () => {
  it.each([
    // [interval, offers, flush at, handed on as [t, n]]
    [
      'the first update at once, then one per interval',
      1000,
      [
        [0, up(1)],
        [120, up(2)],
        [240, up(3)],
        [1000, up(4)],
        [1120, up(5)],
        [2100, up(6)],
      ],
      undefined,
      [
        [0, 1],
        [1000, 4],
        [2100, 6],
      ],
    ],
    [
      'a pause at once, and the resume after it',
      1000,
      [
        [0, up(1)],
        [100, up(2, true)],
        [200, up(3)],
        [300, up(4)],
      ],
      undefined,
      [
        [0, 1],
        [100, 2],
        [200, 3],
      ],
    ],
    [
      'flush hands on the update held back',
      1000,
      [
        [0, up(1)],
        [120, up(2)],
        [240, up(3)],
      ],
      300,
      [
        [0, 1],
        [300, 3],
      ],
    ],
    ['flush with nothing held back hands on nothing', 1000, [[0, up(1)]], 300, [[0, 1]]],
    [
      'interval 0: every update',
      0,
      [
        [0, up(1)],
        [1, up(2)],
        [2, up(3)],
      ],
      undefined,
      [
        [0, 1],
        [1, 2],
        [2, 3],
      ],
    ],
  ] as [string, number, [number, P][], number | undefined, [number, number][]][])('%s', (_, ms, offers, flushAt, want) => {
    expect(run(ms, offers, flushAt)).toEqual(want);
  });
});
