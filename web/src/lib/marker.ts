// marker.ts — the marker shapes that tell series apart without colour, as SVG path data, for the
// chart's points (Points.svg) and the legend's swatches (Legend). Pure.
import { svgNum as f } from './svg-num';

export const SHAPES = ['square', 'circle', 'diamond', 'triangle', 'triangle-down'] as const;
export type Shape = (typeof SHAPES)[number];

/** The path of a marker of "radius" r centred at (cx, cy); shapes of one r look the same size. */
export function markerPath(shape: Shape, cx: number, cy: number, r: number): string {
  switch (shape) {
    case 'square':
      return `M${f(cx - r)},${f(cy - r)}h${f(2 * r)}v${f(2 * r)}h${f(-2 * r)}Z`;
    case 'diamond': {
      const q = r * 1.3;
      return `M${f(cx)},${f(cy - q)}L${f(cx + q)},${f(cy)}L${f(cx)},${f(cy + q)}L${f(cx - q)},${f(cy)}Z`;
    }
    case 'triangle':
    case 'triangle-down': {
      const s = shape === 'triangle' ? 1 : -1,
        q = r * 1.35;
      return `M${f(cx)},${f(cy - s * q)}L${f(cx + q)},${f(cy + s * q * 0.75)}L${f(cx - q)},${f(cy + s * q * 0.75)}Z`;
    }
    default: // circle: two arcs
      return `M${f(cx - r)},${f(cy)}a${f(r)},${f(r)} 0 1,0 ${f(2 * r)},0a${f(r)},${f(r)} 0 1,0 ${f(-2 * r)},0Z`;
  }
}
