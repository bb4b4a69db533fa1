// fig9/index.ts — Figure I (`fig9`) as the page sees it (figures/types.ts FigureDef): the token-specific
// share of the hidden state, layer × step, for Post-LN and Pre-LN with and without warm-up (the
// `plateau-share` experiment, docs/experiments.md). No view state of its own (NoView).
import type { PlateauShareResult } from '../../experiments/plateau-share';
import { testFigure } from '../types';
import Figure9 from './Figure9.svelte';
import { fig9Json, fig9Table } from './downloads';

export const fig9 = testFigure<PlateauShareResult>({
  id: 'fig9',
  component: Figure9,
  slot: 'plateauShare',
  strings: [
    'panel', // {placement} {warmup}
    'axisStep',
    'axisLayer',
    'scale', // the colour ramp's legend
    'readout', // {step} {layer} {values}
  ],
  table: fig9Table,
  json: fig9Json,
});
