// fig15/index.ts — the trainability map (`fig15`) as the page sees it (figures/types.ts FigureDef):
// which toy runs train, stall on the plateau or diverge, over depth × peak lr × warm-up for a chosen
// placement (the `phase-diagram` experiment, docs/experiments.md). Its view state is the placement
// drawn; URL: fig15.placement=pre (absent: Post-LN).
import type { PhaseDiagramResult } from '../../experiments/phase-diagram';
import { PLACEMENTS } from '../../lib/placements';
import { choiceView, testFigure } from '../types';
import Figure15 from './Figure15.svelte';
import { fig15Json, fig15Table } from './downloads';

export interface Fig15View {
  placement: string;
}

export const fig15 = testFigure<PhaseDiagramResult, Fig15View>({
  id: 'fig15',
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
    'readout.run', // {seed} {outcome} {escape} {stop} {loss}
    'never',
    'recompute', // {cell}
    'col.cell',
    'col.outcome',
    'col.escape',
    'col.final',
  ],
  slot: 'phaseDiagram',
  view: choiceView<Fig15View>('fig15', { placement: 'post' }, { placement: PLACEMENTS }),
  table: fig15Table,
  json: (doc, view) => fig15Json(doc, view.placement),
});
