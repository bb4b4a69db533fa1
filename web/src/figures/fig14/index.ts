// fig14/index.ts — the trainability map (`fig14`) as the page sees it (figures/types.ts FigureDef):
// which toy runs train, stall on the plateau or diverge, over depth × peak lr × warm-up for a chosen
// placement (the `phase-diagram` experiment, docs/experiments.md). Its view state is the placement
// drawn; URL: fig14.placement=pre (absent: Post-LN).
import type { PhaseDiagramResult } from '../../experiments/phase-diagram';
import { isPlacement } from '../../lib/placements';
import { written } from '../../lib/permalink';
import type { FigureDef } from '../types';
import Figure14 from './Figure14.svelte';
import { fig14Json, fig14Table } from './downloads';

export interface Fig14View {
  placement: string;
}

export const fig14: FigureDef<Fig14View, PhaseDiagramResult> = {
  id: 'fig14',
  series: 'test',
  component: Figure14,
  strings: [
    'panel', // {warmup}
    'panel.none',
    'axisLr',
    'axisDepth',
    'axisStep',
    'axisLoss',
    'placement.label',
    'outcome.trained',
    'outcome.plateau',
    'outcome.diverged',
    'outcome.mixed',
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
    key: 'fig14',
    initial: { placement: 'post' },
    params: { 'fig14.placement': { parse: (v) => (isPlacement(v) ? { placement: v } : null), reason: 'url.fig14.placement' } },
    write: (s) => written(s.placement !== 'post' && ['fig14.placement', s.placement]),
  },
  numbers: ({ doc, view }) => ({ table: fig14Table(doc), json: fig14Json(doc, view.placement) }),
  provenanceView: (v) => ({ placement: v.placement }),
};
