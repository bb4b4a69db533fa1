// fig15/index.ts — the trainability map (`fig15`) as the page sees it (figures/types.ts FigureDef):
// which toy runs train, stall on the plateau or diverge, over depth × peak lr × warm-up for a chosen
// placement (the `phase-diagram` experiment, docs/experiments.md). Its view state is the placement
// drawn; URL: fig15.placement=pre (absent: Post-LN).
import type { PhaseDiagramResult } from '../../experiments/phase-diagram';
import { PLACEMENTS } from '../../lib/placements';
import { written } from '../../lib/permalink';
import type { FigureDef } from '../types';
import Figure15 from './Figure15.svelte';
import { fig15Json, fig15Table } from './downloads';

/** A placement the engine registers (not a spec's own name). */
const isPlacement = (p: string): boolean => (PLACEMENTS as readonly string[]).includes(p);

export interface Fig15View {
  placement: string;
}

export const fig15: FigureDef<Fig15View, PhaseDiagramResult> = {
  id: 'fig15',
  series: 'test',
  component: Figure15,
  strings: [
    'panel', // {warmup}
    'panel.none',
    'axisLr',
    'axisDepth',
    'axisStep',
    'axisLoss',
    'placement.label',
    'glyph.trained',
    'glyph.plateau',
    'glyph.diverged',
    'glyph.mixed',
    'curves', // {cell}
    'cell', // {layers} {lr} {warmup}
    'seed', // {seed}
    'plateau',
    'optimal',
    'readout', // {cell} {outcome} {runs}
    'readout.item', // {name} {v}
    'readout.run', // {seed} {outcome} {escape} {stop} {loss}
    'never',
    'recompute', // {cell}
    'col.cell',
    'col.outcome',
    'col.escape',
    'col.final',
    'ctl.small', // {depths} {seeds}
  ],
  slot: 'phaseDiagram',
  view: {
    key: 'fig15',
    initial: { placement: 'post' },
    params: { 'fig15.placement': { parse: (v) => (isPlacement(v) ? { placement: v } : null), reason: 'url.fig15.placement' } },
    write: (s) => written(s.placement !== 'post' && ['fig15.placement', s.placement]),
  },
  numbers: ({ doc, view }) => ({ table: fig15Table(doc), json: fig15Json(doc, view.placement) }),
  provenanceView: (v) => ({ placement: v.placement }),
};
