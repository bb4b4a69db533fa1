// slices.ts: afterNextPaint waits for the browser's next frame, then a task of its own; without a
// frame (a hidden tab, or no requestAnimationFrame) it goes on after its longest wait.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterNextPaint } from '../../web/src/lib/slices';

describe('afterNextPaint', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
  it('after a frame, in a task of its own (not in the frame callback)', async () => {
    vi.useFakeTimers();
    let frame: (() => void) | null = null;
    vi.stubGlobal('requestAnimationFrame', (f: () => void) => ((frame = f), 1));
    let done = false;
    void afterNextPaint(1000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(50);
    expect(done).toBe(false); // no frame yet
    frame!();
    await Promise.resolve();
    expect(done).toBe(false); // the frame's callback only schedules the task
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
  it('without a frame: after its longest wait, once', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', () => 1);
    const done = vi.fn();
    void afterNextPaint(100).then(done);
    await vi.advanceTimersByTimeAsync(99);
    expect(done).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2);
    expect(done).toHaveBeenCalledTimes(1);
  });
  it('where there is no requestAnimationFrame at all', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', undefined);
    const done = vi.fn();
    void afterNextPaint(30).then(done);
    await vi.advanceTimersByTimeAsync(31);
    expect(done).toHaveBeenCalledTimes(1);
  });
});
