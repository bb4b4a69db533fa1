// fig18/index.ts — QK-norm and learning-rate sensitivity (`fig18`) as the page sees it
// (figures/types.ts FigureDef): Pre-LN with and without QK-norm over peak lrs 3e-4 … 0.3, the final
// loss against the lr and the largest attention logit over steps (the `lr-sensitivity` experiment,
// docs/experiments.md; Wortsman et al. 2023). No view state of its own (NoView).
import type { LrSensitivityResult } from '../../experiments/lr-sensitivity';
import { testFigure } from '../types';
import Figure18 from './Figure18.svelte';
import { fig18Json, fig18Table } from './downloads';

export const fig18 = testFigure<LrSensitivityResult>({
  id: 'fig18',
  component: Figure18,
  strings: [
    'panelA',
    'panelB',
    'axisLr',
    'axisLoss',
    'axisStep',
    'axisLogit',
    'loss0',
    'best',
    'stopped',
    'legend.lr', // {lr}
    'series.lr', // {placement} {lr}
    'readoutA', // {lr} {values}
    'readoutB', // {t} {values}
    'readout.cell', // {loss} {logit}
    'readout.cellStopped', // {loss} {stopped} {logit}
    'tableA',
  ],
  slot: 'lrSensitivity',
  table: fig18Table,
  json: fig18Json,
});
