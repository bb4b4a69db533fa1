// fig10/index.ts — Figure D (`fig10`) as the page sees it (figures/types.ts FigureDef): the best Adam-like
// sign step η* and one layer's effect on the logits, against depth (the `step-size` experiment,
// docs/experiments.md). No view state of its own.
import type { StepSizeResult } from '../../experiments/step-size';
import type { FigureDef } from '../types';
import Figure10 from './Figure10.svelte';
import { fig10Json, fig10Table } from './downloads';

export type Fig10View = Record<string, never>;

export const fig10: FigureDef<Fig10View, StepSizeResult> = {
  id: 'fig10',
  series: 'test',
  component: Figure10,
  strings: [
    'panelA',
    'panelB',
    'axisDepth',
    'axisEta',
    'axisLayer',
    'readout', // {L} {eta} {layer}
    'readout.item', // {name} {v}
    'ctl.small', // {depths} {seeds}
  ],
  slot: 'stepSize',
  view: { key: 'fig10', initial: {}, params: {}, write: () => [] },
  numbers: ({ doc }) => ({ table: fig10Table(doc), json: fig10Json(doc) }),
  provenanceView: () => ({}),
};
