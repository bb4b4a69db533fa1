// fig17/index.ts — Adam's first step, counterfactuals (`fig17`) as the page sees it (figures/types.ts
// FigureDef): where "the first step ≈ lr·sign(g)" stops holding, with the ReZero gate and with
// GI-Adam (the `adam-first-step` experiment's second slot, docs/experiments.md). No view state of its
// own (NoView).
import type { AdamFirstStepResult } from '../../experiments/adam-first-step';
import { testFigure } from '../types';
import Figure17 from './Figure17.svelte';
import { fig17Json, fig17Table } from './downloads';

export const fig17 = testFigure<AdamFirstStepResult>({
  id: 'fig17',
  component: Figure17,
  slot: 'adamFirstStepCf',
  strings: [
    'panel', // {placement}
    'axisStep',
    'axisRms',
    'all',
    'zero',
    'refLr',
    'refGi', // {v}
    'readout', // {panel} {t} {values}
    'readout.value', // {all} {zero}
    'readout.valueAll', // {all}
    'col.series',
    'tableCaption',
  ],
  table: fig17Table,
  json: fig17Json,
});
