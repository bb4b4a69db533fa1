// stream-throttle.ts — hands a stream of progress updates on at most every `ms`, at once when the
// run pauses or resumes, and the one held back on flush() (a cancelled run's last steps). Pure: the
// clock is a parameter. client.ts's runGrid uses it so a streaming grid redraws Figure 4 about once
// a second, not every ~120 ms chunk (each redraw is main-thread time taken from the engine).
export interface Throttle<P> {
  offer(p: P): void;
  flush(): void;
}

export function throttle<P extends { paused: boolean }>(ms: number, now: () => number, hand: (p: P) => void): Throttle<P> {
  let shownAt = -Infinity;
  let shownPaused = false;
  let held: P | null = null;
  const show = (p: P) => {
    held = null;
    shownAt = now();
    shownPaused = p.paused;
    hand(p);
  };
  return {
    offer(p) {
      if (p.paused !== shownPaused || now() - shownAt >= ms) show(p);
      else held = p;
    },
    flush() {
      if (held) show(held);
    },
  };
}
