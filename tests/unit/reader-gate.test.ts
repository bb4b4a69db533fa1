// reader-gate.test.ts — background work that waits for the reader's pause and hears each input
// (lib/reader-gate.ts), over a fake page, clock and timer.
import { describe, expect, it } from 'vitest';
import { READER_INPUTS, readerGate } from '../../web/src/lib/reader-gate';

function fakePage() {
  let clock = 0;
  const timers: { at: number; f: () => void }[] = [];
  const handlers = new Map<string, ((e?: unknown) => void)[]>();
  const target = {
    addEventListener(type: string, f: EventListenerOrEventListenerObject, opts?: AddEventListenerOptions | boolean) {
      expect(opts).toMatchObject({ capture: true, passive: true });
      handlers.set(type, [...(handlers.get(type) ?? []), f as () => void]);
    },
  };
  const advance = async (ms: number) => {
    clock += ms;
    for (const t of timers.splice(0).sort((a, b) => a.at - b.at)) {
      if (t.at <= clock) t.f();
      else timers.push(t);
    }
    await new Promise((r) => setTimeout(r, 0));
  };
  return {
    target,
    now: () => clock,
    later: (f: () => void, ms: number) => void timers.push({ at: clock + ms, f }),
    fire: (type: string) => handlers.get(type)?.forEach((f) => f()),
    types: () => [...handlers.keys()].sort(),
    advance,
  };
}

describe('readerGate', () => {
  it('listens to every kind of input, captured and passive', () => {
    const f = fakePage();
    readerGate(f.target, 2000, f.now, f.later);
    expect(f.types()).toEqual([...READER_INPUTS].sort());
  });
  it('quiet() resolves once no input has come for the quiet time, counted from the gate’s making', async () => {
    const f = fakePage();
    const g = readerGate(f.target, 2000, f.now, f.later);
    let done = false;
    void g.quiet().then(() => (done = true));
    await f.advance(1500);
    expect(done).toBe(false);
    f.fire('scroll'); // the pause starts again here
    await f.advance(1500);
    expect(done).toBe(false);
    await f.advance(500);
    expect(done).toBe(true);
  });
  it('quiet() resolves at once after a pause', async () => {
    const f = fakePage();
    const g = readerGate(f.target, 2000, f.now, f.later);
    await f.advance(3000);
    let done = false;
    void g.quiet().then(() => (done = true));
    await new Promise((r) => setTimeout(r, 0));
    expect(done).toBe(true);
  });
  it('onInput() hears each input until it is stopped', () => {
    const f = fakePage();
    const g = readerGate(f.target, 2000, f.now, f.later);
    let heard = 0;
    const stop = g.onInput(() => heard++);
    for (const t of READER_INPUTS) f.fire(t);
    expect(heard).toBe(READER_INPUTS.length);
    stop();
    f.fire('pointerdown');
    expect(heard).toBe(READER_INPUTS.length);
  });
});
