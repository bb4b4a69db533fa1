// axis.ts — small pure helpers the figures share for their axes and hover: ticks for a log axis, a
// log axis's padded domain, which tick labels of a crowded axis to draw, a run's steps (all, or those
// a table shows), and the nearest of a set of x values to the pointer.

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

/**
 * Which tick labels of a horizontal axis to draw so that no two touch: all when they fit, else those
 * at every k-th tick for the smallest stride k at which some choice of the first label leaves `gap`
 * px between neighbours, and of those choices the one whose labels are the narrowest on average (the
 * round values: "10⁻³" before "3×10⁻³"; the earliest on a tie). `at`: the labels' centres in px,
 * ascending; `widths`: their widths in px. The ticks themselves are all drawn (Axis).
 */
export function labelsThatFit(at: readonly number[], widths: readonly number[], gap = 4): boolean[] {
  const n = at.length;
  for (let k = 1; k < n; k++) {
    let best: { offset: number; mean: number } | null = null;
    for (let offset = 0; offset < k; offset++) {
      const kept = at.map((_, i) => i).filter((i) => i >= offset && (i - offset) % k === 0);
      const fits = kept.every((i, j) => j === 0 || at[i] - at[kept[j - 1]] >= (widths[i] + widths[kept[j - 1]]) / 2 + gap);
      const mean = kept.reduce((a, i) => a + widths[i], 0) / kept.length;
      if (fits && (!best || mean < best.mean)) best = { offset, mean };
    }
    const o = best?.offset;
    if (o != null) return at.map((_, i) => i >= o && (i - o) % k === 0);
  }
  return at.map((_, i) => i === 0);
}

/** The ticks of a peak-lr axis: the lrs drawn, else (none drawn yet) the domain's logTicks. */
export const lrTicks = (lrs: readonly number[], domain: [number, number]): number[] => (lrs.length ? [...lrs] : logTicks(domain));

/** The steps 1…n of a run (the x values of a figure over its steps). */
export const stepsTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

/** About `parts` values of 1…n, evenly spaced: all of them when n ≤ `all`, else 1, every ⌈n/parts⌉-th
 *  and n (a layer axis's ticks, the steps a table shows). */
export function evenlySpaced(n: number, parts: number, all = parts): number[] {
  if (n <= all) return stepsTo(n);
  const every = Math.ceil(n / parts);
  const out = [1];
  for (let k = every; k < n; k += every) out.push(k);
  if (out[out.length - 1] !== n) out.push(n);
  return out;
}

/** The steps of 1…n a table of a short run shows: 1–10, then every 10th. */
export const earlyAndEveryTenth = (n: number): number[] => stepsTo(n).filter((s) => s <= 10 || s % 10 === 0);

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
