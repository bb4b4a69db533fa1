// curve.ts — a long curve kept as numbers, and what of it a chart of W pixels can show. Pure.
// A run of 10⁵ steps has 10⁵ losses: turned into { x, y } objects it is 10⁵ objects per line, and
// a run list can hold ten such lines (issue 31: 10⁶ loss points drawn without freezing the page).
// curvePoints gives a curve's numbers as a list of points without making them: a read-only array
// that makes the point at an index when it is read (a readout, a table cell, the line's end), so
// that the figures' transforms and readouts keep their one type (XY[]), while the chart layers ask
// curveOf for the numbers behind it and draw them through m4, which keeps per pixel column the
// first, lowest, highest and last point (the M4 reduction, Jugel et al. 2014: a line drawn from
// them at that width covers the same pixels as one drawn from every point), made once per curve,
// domain and width (m4Cached). Downloads read the documents, never these. Left out: curves whose
// x does not step by 1, log x scales.

/** A point of a chart (components/common/chart.ts XY). */
export interface XY {
  x: number;
  y: number;
}

/** y values at x = x0, x0 + 1, …, x0 + ys.length − 1 (a loss curve: x0 = 1, the first step). */
export interface Curve {
  readonly ys: ArrayLike<number>;
  readonly x0: number;
}

// the curve behind each list curvePoints made
const behind = new WeakMap<object, Curve>();

/**
 * Curve `c` as a list of points, none made until it is read: `length` is the curve's, element i
 * is { x: x0 + i, y: ys[i] } (a new object per read), and every read-only array method works on
 * it (walking every point: slow for a long curve, which is why layers draw it through curveOf and
 * m4). Writing to it throws.
 */
export function curvePoints(c: Curve): XY[] {
  const n = c.ys.length;
  const index = (k: string | symbol): number => {
    if (typeof k !== 'string') return -1;
    const i = Number(k);
    return Number.isInteger(i) && i >= 0 && i < n && String(i) === k ? i : -1;
  };
  const refuse = () => {
    throw new TypeError('a curve’s points are read-only (lib/curve.ts)');
  };
  const list = new Proxy([] as XY[], {
    get(t, k, r) {
      if (k === 'length') return n;
      const i = index(k);
      return i >= 0 ? { x: c.x0 + i, y: c.ys[i] } : Reflect.get(t, k, r);
    },
    has: (t, k) => index(k) >= 0 || Reflect.has(t, k),
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
  });
  behind.set(list, c);
  return list;
}

/** The curve behind a list curvePoints made; null for any other list. */
export const curveOf = (points: readonly XY[]): Curve | null => behind.get(points) ?? null;

/**
 * The M4 reduction of curve `c` for a chart whose x axis spans `domain` over `columns` pixel
 * columns: per column (a point's column is ⌊(x − lo) / (hi − lo) · columns⌋, clamped to the
 * first and last column so points beyond the domain join the edge ones), its first, lowest,
 * highest and last point with finite y, and its first point whose y is not finite (so that a gap
 * stays a gap), in x order, each once. A curve of no more than 4 points per column on average
 * (ys.length ≤ 4 · columns), a domain of no width, or fewer than one column gives every point.
 */
export function m4(c: Curve, domain: readonly [number, number], columns: number): XY[] {
  const { ys, x0 } = c;
  const n = ys.length;
  const [lo, hi] = domain;
  const W = Math.floor(columns);
  if (n <= 4 * W || W < 1 || !(hi > lo)) return Array.from(ys, (y, i) => ({ x: x0 + i, y }));
  const scale = W / (hi - lo);
  const out: XY[] = [];
  let col = -1;
  // the indices kept of the current column: first, lowest, highest, last finite; first gap (plain
  // locals, none captured by a closure: V8 keeps them in registers, and a run of 10⁵ steps is
  // reduced in a fraction of the time)
  let first = -1;
  let min = -1;
  let max = -1;
  let last = -1;
  let gap = -1;
  for (let i = 0; i < n; i++) {
    let k = Math.floor((x0 + i - lo) * scale);
    if (k < 0) k = 0;
    else if (k > W - 1) k = W - 1;
    if (k !== col) {
      if (col >= 0) keepColumn(out, ys, x0, first, min, max, last, gap);
      col = k;
      first = min = max = last = gap = -1;
    }
    const y = ys[i];
    if (!Number.isFinite(y)) {
      if (gap < 0) gap = i;
      continue;
    }
    if (first < 0) first = min = max = i;
    else {
      if (y < ys[min]) min = i;
      if (y > ys[max]) max = i;
    }
    last = i;
  }
  if (col >= 0) keepColumn(out, ys, x0, first, min, max, last, gap);
  return out;
}

/** m4's points of one column: the indices it kept (−1: none), each once, in x order. */
function keepColumn(out: XY[], ys: ArrayLike<number>, x0: number, ...kept: number[]) {
  const keep = kept.filter((i) => i >= 0).sort((a, b) => a - b);
  let prev = -1;
  for (const i of keep) if (i !== prev) out.push({ x: x0 + (prev = i), y: ys[i] });
}

// reductions already made: per curve's numbers, per domain and column count (the last few: a
// resized chart asks for new ones)
const KEEP = 4;
const made = new WeakMap<object, Map<string, XY[]>>();

/** m4, made once per curve (its numbers' identity and x0), domain and column count. A curve's
 *  numbers must not change once drawn (documents are replaced, never changed: engine/documents.ts). */
export function m4Cached(c: Curve, domain: readonly [number, number], columns: number): XY[] {
  const key = `${c.x0}|${domain[0]}|${domain[1]}|${Math.floor(columns)}`;
  let byKey = made.get(c.ys as object);
  if (!byKey) made.set(c.ys as object, (byKey = new Map()));
  let pts = byKey.get(key);
  if (!pts) {
    if (byKey.size >= KEEP) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, (pts = m4(c, domain, columns)));
  }
  return pts;
}
