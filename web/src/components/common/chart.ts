// chart.ts — the context a Chart.svelte container shares with its layers (Axis, Line, Band, Points,
// Rule): the scales and the inner plot size. Layers never create scales of their own.
import { getContext, setContext } from 'svelte';
import type { ScaleLinear, ScaleLogarithmic } from 'd3-scale';
import { curveOf, m4Cached } from '../../lib/curve';

export type Scale = ScaleLinear<number, number> | ScaleLogarithmic<number, number>;

export interface ChartContext {
  readonly x: Scale;
  readonly y: Scale;
  /** plot area size in px (without padding) */
  readonly width: number;
  readonly height: number;
  /** id of a clipPath covering the plot area (lines and bands use it) */
  readonly clipId: string;
}

const KEY = Symbol('lnx.chart');
export const setChart = (c: ChartContext) => setContext(KEY, c);
export const getChart = (): ChartContext => getContext<ChartContext>(KEY);

// ---- widths known before a box is measured ----------------------------------------------------
// A box that draws at its measured width (a Chart, Figure 1's canvas: [data-box]) starts at
// UNMEASURED_WIDTH and draws again when its ResizeObserver reports. An island hydrated over the
// build's HTML (page/boot.ts) knows the widths its boxes have on screen already: it hands them, in
// document order, to its components (setBoxWidths), and each box takes the next one as it starts,
// so it is drawn once, at its width.
const BOXES = Symbol('lnx.boxes');
/** The attribute that marks a measured box (its width is read from the build's HTML). */
export const BOX = 'data-box';
export const setBoxWidths = (widths: readonly number[]) => setContext(BOXES, { widths, next: 0 });
/** The next known box width (px, > 0), or null: none given (the build, a mount), or unknown. */
export function nextBoxWidth(): number | null {
  const b = getContext<{ widths: readonly number[]; next: number } | undefined>(BOXES);
  const w = b ? b.widths[b.next++] : undefined;
  return w != null && w > 0 ? w : null;
}

export interface Padding {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** A datum with optional spread, shared by the layers. */
export interface XY {
  x: number;
  y: number;
}

/** What a component drawing one line per series is given: the drawn series, the reference's
 *  (muted under a live run) and how to pick a series' points (SeriesLines, PlacementLines). */
export interface SeriesData<S> {
  series: readonly S[];
  ref?: readonly S[];
  data: (s: S) => XY[];
}

// ---- domains over several documents (pure): a live run drawn over the reference gets axes that
// hold both (the figures' transform.ts call these with the drawn values of each document).

/** A chart domain [lo, hi]. */
export type Domain = [number, number];

/** [min, max] of the finite values (only the positive ones with `log`), or null when there are none. */
export function extentOf(values: Iterable<number>, log = false): Domain | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values)
    if (Number.isFinite(v) && (!log || v > 0)) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  return lo <= hi ? [lo, hi] : null;
}

/** The smallest domain holding every given one: null or undefined ones are skipped, and so, with
 *  `log`, any whose bounds are not positive. `fallback` (default [0, 1]) when none is left. */
export function unionDomain(domains: readonly (Domain | null | undefined)[], { log = false, fallback = [0, 1] as Domain } = {}): Domain {
  const ok = (v: number) => Number.isFinite(v) && (!log || v > 0);
  const valid = domains.filter((d): d is Domain => d != null && ok(d[0]) && ok(d[1]) && d[0] <= d[1]);
  if (!valid.length) return fallback;
  return [Math.min(...valid.map((d) => d[0])), Math.max(...valid.map((d) => d[1]))];
}

/** The distinct finite values of every given list, ascending (the ticks or categories of a
 *  discrete axis, e.g. depths or warm-up lengths, over several documents). */
export function unionValues(...lists: readonly (readonly number[] | null | undefined)[]): number[] {
  return [...new Set(lists.flatMap((l) => l ?? []).filter(Number.isFinite))].sort((a, b) => a - b);
}

/** The width a chart is drawn at before its box is measured (prerendered, or before the script
 *  runs): about a panel's width on a laptop; a narrower box scales the drawing down. */
export const UNMEASURED_WIDTH = 480;

/**
 * At most about `max` of `points` (in order), drawn the same at a chart's resolution: the points
 * fall into max / 4 runs of consecutive points, and each run keeps its first and last point, its
 * lowest and highest, and its first gap (a point whose x or y is not finite, so that a gap stays a
 * gap). A series of `max` points or fewer is returned as it is (the figures' own series are), so
 * this only thins what no screen could show point by point: a run of 10⁵ steps is drawn from a few
 * thousand of them, while its readouts and downloads keep every one. Pure.
 */
export function thin<P extends XY>(points: readonly P[], max: number): readonly P[] {
  const n = points.length;
  const buckets = Math.floor(max / 4);
  if (n <= max || buckets < 1) return points;
  const out: P[] = [];
  const ok = (p: P) => Number.isFinite(p.x) && Number.isFinite(p.y);
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * n) / buckets);
    const to = Math.floor(((b + 1) * n) / buckets);
    let lo = -1;
    let hi = -1;
    let gap = -1;
    for (let i = from; i < to; i++) {
      const p = points[i];
      if (!ok(p)) {
        if (gap < 0) gap = i;
        continue;
      }
      if (lo < 0 || p.y < points[lo].y) lo = i;
      if (hi < 0 || p.y > points[hi].y) hi = i;
    }
    const keep = [...new Set([from, lo, hi, gap, to - 1].filter((i) => i >= from))].sort((a, b) => a - b);
    for (const i of keep) out.push(points[i]);
  }
  return out;
}

/** The pixel columns a plot `width` CSS px wide has on this screen (its device pixels, at most 3
 *  per CSS px; 1 per CSS px where there is no screen: the build). */
export const columnsOf = (width: number): number => Math.round(width * Math.min(3, Math.max(1, globalThis.devicePixelRatio || 1)));

/**
 * The points a layer draws of `points` in a chart of plot width `width` px over x domain `domain`:
 * a long curve kept as numbers (lib/curve.ts curvePoints) through its M4 reduction at the screen's
 * pixel columns (made once per curve and width), any other list thinned to 4 points per px (thin).
 */
export function shownPoints<P extends XY>(points: readonly P[], domain: readonly [number, number], width: number): readonly XY[] {
  const c = curveOf(points);
  return c ? m4Cached(c, domain, columnsOf(width)) : thin(points, 4 * width);
}
