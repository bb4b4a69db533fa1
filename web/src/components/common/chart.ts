// chart.ts — the context a Chart.svelte container shares with its layers (Axis, Line, Band, Points,
// Rule): the scales and the inner plot size. Layers never create scales of their own.
import { getContext, setContext } from 'svelte';
import type { ScaleLinear, ScaleLogarithmic } from 'd3-scale';

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
