// fig20/index.ts — the angular-update figure (`fig20`) as the page sees it (figures/types.ts
// FigureDef): how far each step turns the layers' weights through the first steps of Figure 4's toy,
// for Post-LN, Pre-LN and DeepNorm, with and without warm-up (the `angular-update` experiment,
// docs/experiments.md), beside the paragraph on DeepNorm (claim 10). No view state of its own (NoView).
import type { AngularUpdateResult } from '../../experiments/angular-update';
import { testFigure } from '../types';
import Figure20 from './Figure20.svelte';
import { fig20Json, fig20Table } from './downloads';

export const fig20 = testFigure<AngularUpdateResult>({
  id: 'fig20',
  component: Figure20,
  slot: 'angularUpdate',
  strings: [
    'panel', // {warmup}: a panel with warm-up
    'panel0', // the panel without warm-up
    'axisStep',
    'axisAngle',
    'readout', // {panel} {t} {values}
    'readout.value', // {angle} {relative}
    'col.series',
    'tableCaption',
  ],
  table: fig20Table,
  json: fig20Json,
});
