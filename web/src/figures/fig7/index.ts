// fig7/index.ts — Figure C (`fig7`) as the page sees it (figures/types.ts FigureDef): Adam's first steps
// against the gradient's scale, Post-LN against Pre-LN (the `adam-first-step` experiment,
// docs/experiments.md). No view state of its own.
import type { AdamFirstStepResult } from '../../experiments/adam-first-step';
import type { FigureDef } from '../types';
import Figure7 from './Figure7.svelte';
import { fig7Json, fig7Table } from './downloads';

export type Fig7View = Record<string, never>;

export const fig7: FigureDef<Fig7View, AdamFirstStepResult> = {
  id: 'fig7',
  series: 'test',
  component: Figure7,
  strings: [
    'panelA',
    'panelB',
    'axisStep',
    'axisGrad',
    'axisRms',
    'refLr',
    'readout', // {t} {grad} {rms}
    'readout.item', // {name} {v}
    'col.step',
    'ctl.small', // {layers} {d} {steps}
  ],
  slot: 'adamFirstStep',
  view: { key: 'fig7', initial: {}, params: {}, write: () => [] },
  numbers: ({ doc }) => ({ table: fig7Table(doc), json: fig7Json(doc) }),
  provenanceView: () => ({}),
};
