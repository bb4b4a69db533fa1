// fig14/index.ts — the Figure of claim 9 (`fig14`) as the page sees it (figures/types.ts FigureDef):
// Pre-LN with and without a short warm-up over peak lrs 1e-3 … 3e-2, at Figure 4's toy — where
// warm-up changes the outcome, and what it costs where it does not (the `phase-diagram`
// experiment's `preWarmup` slot, docs/experiments.md). No view state of its own (NoView).
import type { PhaseDiagramResult } from '../../experiments/phase-diagram';
import { testFigure } from '../types';
import Figure14 from './Figure14.svelte';
import { fig14Json, fig14Table } from './downloads';

export const fig14 = testFigure<PhaseDiagramResult>({
  id: 'fig14',
  component: Figure14,
  slot: 'preWarmup',
  strings: [
    'panelA',
    'panelB',
    'axisLr',
    'axisEscape',
    'axisLoss',
    'never',
    'plateau',
    'optimal',
    'series.none',
    'series.warmup', // {warmup}
    'readout', // {lr} {values}
    'readout.cell', // {outcome} {escape} {loss}
  ],
  table: fig14Table,
  json: fig14Json,
});
