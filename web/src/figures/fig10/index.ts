// fig10/index.ts — Figure E (`fig10`) as the page sees it (figures/types.ts FigureDef): the best Adam-like
// sign step η* and one layer's effect on the logits, against depth (the `step-size` experiment,
// docs/experiments.md). No view state of its own (NoView).
import type { StepSizeResult } from '../../experiments/step-size';
import { testFigure } from '../types';
import Figure10 from './Figure10.svelte';
import { fig10Json, fig10Table } from './downloads';

export const fig10 = testFigure<StepSizeResult>({
  id: 'fig10',
  component: Figure10,
  slot: 'stepSize',
  strings: [
    'panelA',
    'panelB',
    'axisDepth',
    'axisEta',
    'axisLayer',
    'readout', // {L} {eta} {layer}
    'readout.eta', // {eta} {lo} {hi} {useful}
    'colNear',
    'colUseful',
  ],
  table: fig10Table,
  json: fig10Json,
});
