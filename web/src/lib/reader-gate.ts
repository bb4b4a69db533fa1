// reader-gate.ts — when background work the page starts by itself may use the machine: only while the
// reader leaves the page alone. The engine's threads take every core (CMakeLists.txt: one per core),
// so a job the reader did not ask for (the speed calibration, lib/calibrate.ts) shares the main
// thread's core with one of them, and every tap, key and scroll during it waits its turn: on a
// 2-core machine under a phone's 4× slower CPU, a tap on Share took a median 192 ms while the
// calibration ran, 112 ms with this gate (bench/calibration_tap_ab.mjs; bench/notes/mainthread.md).
// Such work waits for a pause (no pointer, key, wheel, touch or scroll for `quietMs`) and stops at
// the next input, to be done again at the next pause.

/** How long the reader leaves the page alone before background work starts: a pause in reading,
 *  longer than the gaps between the steps of one gesture (a scroll's events, a tap's) */
export const READER_QUIET_MS = 2000;

/** The events that say the reader is using the page (captured at the window: a scroll of the
 *  document or of any element, a touch anywhere) */
export const READER_INPUTS = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

export interface ReaderGate {
  /** resolves once the reader has not used the page for the gate's quiet time */
  quiet(): Promise<void>;
  /** calls `f` at each input of the reader until the returned function is called */
  onInput(f: () => void): () => void;
}

type Target = Pick<EventTarget, 'addEventListener'>;

/** A gate over `target`'s input events (listened to for the page's lifetime). `now` and `later` are
 *  the clock and the timer (parameters for the tests). The gate's clock starts at its making: what
 *  made it (a figure scrolled near the viewport) is the reader's doing. */
export function readerGate(
  target: Target,
  quietMs = READER_QUIET_MS,
  now: () => number = () => performance.now(),
  later: (f: () => void, ms: number) => unknown = (f, ms) => setTimeout(f, ms),
): ReaderGate {
  let last = now();
  const listeners = new Set<() => void>();
  const seen = () => {
    last = now();
    for (const f of [...listeners]) f();
  };
  for (const type of READER_INPUTS) target.addEventListener(type, seen, { capture: true, passive: true });
  return {
    quiet: () =>
      new Promise<void>((resolve) => {
        const check = () => {
          const left = last + quietMs - now();
          if (left <= 0) resolve();
          else later(check, left);
        };
        check();
      }),
    onInput(f) {
      listeners.add(f);
      return () => void listeners.delete(f);
    },
  };
}

let page: ReaderGate | null = null;
/** The page's one gate (made at the first call; null outside a browser) */
export function pageGate(): ReaderGate | null {
  if (typeof window === 'undefined') return null;
  return (page ??= readerGate(window));
}
