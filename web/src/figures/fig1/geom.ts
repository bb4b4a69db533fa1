// geom.ts — pixel geometry for Figure 1: grid units (path.ts) → SVG user units, and SVG path strings.
// Covers: the scale chosen from the container width, vertical positions of the two rows, rounded
// polylines, trimming an edge's last vertical segment to its target's outline.
// Leaves out: which nodes and edges exist (path.ts) and how they look (the .svg.svelte components).

import type { Pt, RowId } from './path';

export interface Geometry {
  /** SVG width and height (user units = CSS px, the viewBox is drawn 1:1 at the measured width). */
  W: number;
  H: number;
  compact: boolean;
  /** Pixels per grid column. */
  U: number;
  /** x in px of grid column 0. */
  ox: number;
  /** Box height; font sizes. */
  h: number;
  font: number;
  small: number;
  rows: Record<RowId, { top: number; label: number; branch: number; main: number; bracketTop: number; bracketBottom: number }>;
}

/** Below this container width the figure uses short labels, smaller type and tighter rows. */
export const COMPACT_BELOW = 560;
const U_MAX = 70;
/** Backward arcs (gradArc) start ARC_GAP px off a box and dip at most ARC_DEPTH_MAX px below it. */
const ARC_GAP = 3;
const ARC_DEPTH_MAX = 24;

/**
 * Geometry for a container `width` px wide showing grid columns `x0…x1`.
 * Columns never get wider than U_MAX; narrower containers shrink them (and the figure stays centred).
 */
export function geometry(width: number, x0: number, x1: number): Geometry {
  const W = Math.max(280, Math.round(width || 760));
  const compact = W < COMPACT_BELOW;
  const padX = compact ? 4 : 12;
  const span = Math.max(1, x1 - x0);
  const U = Math.min(U_MAX, (W - 2 * padX) / span);
  const ox = (W - span * U) / 2 - x0 * U;
  const h = Math.round(Math.min(34, Math.max(22, U * 0.5)));
  const font = compact ? 11 : 13;
  const small = compact ? 10 : 11.5;
  const labelH = compact ? 16 : 20;
  const laneGap = compact ? 10 : 16;
  const rowGap = compact ? 4 : 10;
  const pad = 6; // bracket around the boxes

  let top = 2;
  const rows = {} as Geometry['rows'];
  for (const r of ['post', 'pre'] as const) {
    const bracketTop = top + labelH + 2;
    const branch = bracketTop + pad + h / 2;
    const main = branch + h + laneGap;
    const bracketBottom = main + h / 2 + pad;
    rows[r] = { top, label: top + labelH - 6, branch, main, bracketTop, bracketBottom };
    // below the bracket: its N× label, and the backward arcs that dip under the main lane
    const bottom = Math.max(bracketBottom + small + 8, main + h / 2 + ARC_GAP + ARC_DEPTH_MAX + 4);
    top = bottom + rowGap;
  }
  return { W, H: Math.ceil(top - rowGap + 2), compact, U, ox, h, font, small, rows };
}

/** Grid point → px, for row `row`. */
export function toPx(g: Geometry, row: RowId, [x, lane]: Pt): [number, number] {
  const r = g.rows[row];
  return [g.ox + x * g.U, lane <= 0 ? r.branch : lane >= 1 ? r.main : r.branch + (r.main - r.branch) * lane];
}

/** Shorten a polyline's last segment by `by` px (to stop at a node's outline). */
export function trimEnd(pts: [number, number][], by: number): [number, number][] {
  if (pts.length < 2 || by <= 0) return pts;
  const out = pts.map((p) => [p[0], p[1]] as [number, number]);
  const [ax, ay] = out[out.length - 2];
  const [bx, by0] = out[out.length - 1];
  const len = Math.hypot(bx - ax, by0 - ay);
  if (len === 0) return out;
  const k = Math.max(0, len - by) / len;
  out[out.length - 1] = [ax + (bx - ax) * k, ay + (by0 - ay) * k];
  return out;
}

/** SVG path through `pts` with corners rounded by up to `r` px. */
export function roundedPath(pts: [number, number][], r = 6): string {
  if (pts.length === 0) return '';
  const f = (n: number) => Math.round(n * 10) / 10;
  let d = `M${f(pts[0][0])},${f(pts[0][1])}`;
  for (let i = 1; i < pts.length; i++) {
    const [x, y] = pts[i];
    if (i === pts.length - 1) {
      d += `L${f(x)},${f(y)}`;
      break;
    }
    const [px, py] = pts[i - 1];
    const [nx, ny] = pts[i + 1];
    const l1 = Math.hypot(x - px, y - py);
    const l2 = Math.hypot(nx - x, ny - y);
    const rr = Math.min(r, l1 / 2, l2 / 2);
    if (rr <= 0.01) {
      d += `L${f(x)},${f(y)}`;
      continue;
    }
    const ax = x - ((x - px) / l1) * rr;
    const ay = y - ((y - py) / l1) * rr;
    const bx = x + ((nx - x) / l2) * rr;
    const by = y + ((ny - y) / l2) * rr;
    d += `L${f(ax)},${f(ay)}Q${f(x)},${f(y)} ${f(bx)},${f(by)}`;
  }
  return d;
}

/** A node's box in px: centre, half-width, half-height, lane. */
export interface PxBox {
  x: number;
  y: number;
  hw: number;
  hh: number;
  lane: 'main' | 'branch';
}

/**
 * The backward step from node `p` (nearer the loss) to node `q` as an SVG path that keeps clear of
 * the forward edges: on one lane, a shallow arc under the main lane (over the branch lane); between
 * lanes, a slightly bent line from the corner of `p` that faces `q` to the corner of `q` facing `p`.
 * Ends are `gap` px off the outlines so an arrowhead at `q` stays visible.
 */
export function gradArc(p: PxBox, q: PxBox, gap = ARC_GAP): string {
  const f = (n: number) => Math.round(n * 10) / 10;
  if (p.lane === q.lane) {
    const s = p.lane === 'main' ? 1 : -1; // below the main lane, above the branch lane
    const dx = Math.sign(q.x - p.x) || 1;
    const sx = p.x + dx * Math.min(p.hw * 0.45, 10);
    const ex = q.x - dx * Math.min(q.hw * 0.45, 10);
    const sy = p.y + s * (p.hh + gap);
    const ey = q.y + s * (q.hh + gap);
    const depth = Math.min(ARC_DEPTH_MAX, 8 + Math.abs(ex - sx) * 0.1);
    const cy = Math.max(sy * s, ey * s) * s + s * depth * 2; // quadratic: the curve reaches half of it
    return `M${f(sx)},${f(sy)}Q${f((sx + ex) / 2)},${f(cy)} ${f(ex)},${f(ey)}`;
  }
  const dx = Math.sign(q.x - p.x) || 1;
  const dy = Math.sign(q.y - p.y) || 1;
  // corners facing each other; a circle (hw === hh) uses the 45° point of its outline
  const corner = (b: PxBox, sx: number, sy: number, k: number): [number, number] => {
    const round = Math.abs(b.hw - b.hh) < 0.5;
    const c = round ? Math.SQRT1_2 : 1;
    return [b.x + sx * (b.hw * c + k), b.y + sy * (b.hh * c + k)];
  };
  const [sx, sy] = corner(p, dx, dy, gap * 0.5);
  const [ex, ey] = corner(q, -dx, -dy, gap * 0.5);
  const cx = (sx + ex) / 2 - dx * 0.15 * Math.abs(ey - sy);
  const cy = (sy + ey) / 2 + dy * 0.15 * Math.abs(ex - sx);
  return `M${f(sx)},${f(sy)}Q${f(cx)},${f(cy)} ${f(ex)},${f(ey)}`;
}
