// index.ts — the figures' kit in one import: the frames (ResultFigure, ExperimentFigure), the
// chart layers (Chart and the SVG layers drawn in its scales), panels, legend, table and form parts.
// Each is its own component file; this only re-exports them.
export { default as Axis } from './Axis.svg.svelte';
export { default as Band } from './Band.svg.svelte';
export { default as Chart } from './Chart.svelte';
export { default as Cursor } from './Cursor.svg.svelte';
export { default as DataTable } from './DataTable.svelte';
export { default as ExperimentFigure } from './ExperimentFigure.svelte';
export { default as HeatMap } from './HeatMap.svg.svelte';
export { default as Legend } from './Legend.svelte';
export { default as Line } from './Line.svg.svelte';
export { default as Panel } from './Panel.svelte';
export { default as LrPanel } from './LrPanel.svelte';
export { default as PanelCharts } from './PanelCharts.svelte';
export { default as Panels } from './Panels.svelte';
export { default as PlacementLines } from './PlacementLines.svg.svelte';
export { default as Points } from './Points.svg.svelte';
export { default as Radios } from './Radios.svelte';
export { default as ResultFigure } from './ResultFigure.svelte';
export { default as Rule } from './Rule.svg.svelte';
export { default as SeriesLines } from './SeriesLines.svg.svelte';
export { default as SlotSettings } from './SlotSettings.svelte';
export { default as StepPanelCharts } from './StepPanelCharts.svelte';
