// axis.ts — small pure helpers the figures share for their axes and hover: ticks for a log axis, a
// log axis's padded domain, and the nearest of a set of x values to the pointer.

/** Ticks for a log axis over `domain`: the powers of ten inside it, with 2× and 5× added while
 *  that makes fewer than three (a domain inside one decade gets its 1-2-5 steps). */
export function logTicks([lo, hi]: [number, number]): number[] {
  if (!(lo > 0) || !(hi > lo)) return [];
  const out: number[] = [];
  for (const mult of [[1], [1, 2, 5], [1, 2, 3, 5, 7]]) {
    out.length = 0;
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++)
      for (const m of mult) {
        const v = m * 10 ** e;
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push(Number(v.toPrecision(12)));
      }
    if (out.length >= 3) break;
  }
  return out;
}

/** A log axis's domain over the ascending values `xs` with room at both ends: [first / pad, last · pad]. */
export const paddedLogDomain = (xs: readonly number[], pad: number): [number, number] => [xs[0] / pad, xs[xs.length - 1] * pad];

/** Nearest value in `xs` to `x` (for hover), or null. */
export function nearest(xs: readonly number[], x: number): number | null {
  let best: number | null = null;
  for (const v of xs) if (best == null || Math.abs(v - x) < Math.abs(best - x)) best = v;
  return best;
}

/** The keyboard path through a figure's x values: ←/↓ and →/↑ move to the previous or next of
 *  `xs` from `current` (the last one when none is selected); null for any other key. */
export function stepAlong(xs: readonly number[], current: number | null, key: string): number | null {
  const dir = key === 'ArrowRight' || key === 'ArrowUp' ? 1 : key === 'ArrowLeft' || key === 'ArrowDown' ? -1 : 0;
  if (!dir || !xs.length) return null;
  const i = xs.indexOf(current ?? xs[xs.length - 1]);
  return xs[Math.max(0, Math.min(xs.length - 1, (i < 0 ? xs.length - 1 : i) + dir))];
}
