// fig7/index.ts — Figure C (`fig7`) as the page sees it (figures/types.ts FigureDef): Adam's first steps
// against the gradient's scale, Post-LN against Pre-LN (the `adam-first-step` experiment,
// docs/experiments.md). No view state of its own (NoView).
import type { AdamFirstStepResult } from '../../experiments/adam-first-step';
import { testFigure } from '../types';
import Figure7 from './Figure7.svelte';
import { fig7Json, fig7Table } from './downloads';

export const fig7 = testFigure<AdamFirstStepResult>({
  id: 'fig7',
  component: Figure7,
  slot: 'adamFirstStep',
  strings: [
    'panelA',
    'panelB',
    'axisStep',
    'axisGrad',
    'axisRms',
    'refLr',
    'readout', // {t} {grad} {rms}
    'col.step',
  ],
  table: fig7Table,
  json: fig7Json,
});
