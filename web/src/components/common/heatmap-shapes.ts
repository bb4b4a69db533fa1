// heatmap-shapes.ts — HeatMap.svg's cells as a few SVG paths instead of one <rect> each: one path
// per opacity level, holding every cell drawn at that level as a subpath. Figure I's four heat maps
// were 1640 <rect>s, a third of the prerendered page's HTML; as paths they are about a sixth of
// that. A cell's value is rounded to one of LEVELS steps (1/64, below what the eye tells apart on a
// single-hue ramp; the figure's readout and table give the values themselves). Pure.

/** A cell's rectangle in px. */
export interface CellRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Opacity steps of the ramp. */
export const HEAT_LEVELS = 64;

const clamp01 = (v: number) => Math.max(0, Math.min(1, v));

/** The ramp: a value in [0, 1] (clamped) to a fill opacity, never quite transparent. */
export const heatOpacity = (v: number): number => 0.06 + 0.94 * clamp01(v);

/** The ramp's legend as `steps` equal bands from 0 to 1: each band's left edge (in band widths) and
 *  the opacity of the value at its middle. Drawn as SVG, so the legend is part of an exported
 *  picture (a CSS gradient is not). */
export const heatRamp = (steps = 16): { x: number; opacity: number }[] =>
  Array.from({ length: steps }, (_, k) => ({ x: k, opacity: Math.round(heatOpacity((k + 0.5) / steps) * 1e4) / 1e4 }));

const px = (v: number) => Math.round(v * 100) / 100;

/** The cells with a finite value, grouped by their value rounded to one of `levels` steps: per
 *  level (ascending) its opacity and a path of one closed rectangle per cell (`rect` of its x, y). */
export function heatPaths(
  data: readonly { x: number; y: number; v: number }[],
  rect: (x: number, y: number) => CellRect,
  levels = HEAT_LEVELS,
): { opacity: number; d: string }[] {
  const byLevel = new Map<number, string[]>();
  for (const c of data) {
    if (!Number.isFinite(c.v)) continue;
    const k = Math.round(clamp01(c.v) * levels);
    const r = rect(c.x, c.y);
    const w = px(r.w);
    const sub = `M${px(r.x)} ${px(r.y)}h${w}v${px(r.h)}h${-w}z`;
    const list = byLevel.get(k);
    if (list) list.push(sub);
    else byLevel.set(k, [sub]);
  }
  return [...byLevel.keys()].sort((a, b) => a - b).map((k) => ({ opacity: Math.round(heatOpacity(k / levels) * 1e4) / 1e4, d: byLevel.get(k)!.join('') }));
}
