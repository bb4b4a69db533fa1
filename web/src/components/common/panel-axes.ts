// panel-axes.ts — the shared axes of a figure drawn as panels over the steps 1…steps of a run (one
// panel per placement or language: PanelCharts), with the reference's panel drawn muted under the live
// panel of the same key. Pure; the figures' transforms give their charts to it (fig17, fig19).
import { unionDomain, type Domain } from './chart';

/** What stepPanelAxes reads of a figure's chart: its length in steps (0: nothing drawn), its value
 *  domain and its panels by key. */
export interface StepPanelChart<P extends { key: string }> {
  steps: number;
  yDomain: Domain;
  panels: readonly P[];
}

export interface StepPanelAxes<P> {
  xDomain: Domain;
  yDomain: Domain;
  /** the reference's panel of the same key (drawn muted under a live run's), if any */
  refPanel: (key: string) => P | undefined;
}

/** The axes of chart `c` with the reference `ref` drawn muted under it: every step and value of both
 *  (the reference alone when `c` is the reference, or draws nothing). */
export function stepPanelAxes<P extends { key: string }>(c: StepPanelChart<P>, ref: StepPanelChart<P> | null): StepPanelAxes<P> {
  const refPanel = (key: string) => (ref && ref !== c ? ref.panels.find((p) => p.key === key) : undefined);
  if (!ref?.steps) return { xDomain: [1, Math.max(2, c.steps)], yDomain: c.yDomain, refPanel };
  return {
    xDomain: [1, Math.max(2, c.steps, ref.steps)],
    yDomain: unionDomain([c.steps > 0 ? c.yDomain : null, ref.yDomain], { fallback: c.yDomain }),
    refPanel,
  };
}
