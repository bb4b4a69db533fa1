// fig5/index.ts — Figure F (`fig5`) as the page sees it (figures/types.ts FigureDef): the output's
// sensitivity to a small change of every weight, against depth, for every placement (the
// `output-sensitivity` experiment, docs/experiments.md). Its view state is which perturbation is
// drawn, each its own document: a random one (slot outputSensitivity) or Adam's sign step (slot
// outputSensitivitySign). URL: fig5.perturbation=sign (absent: random).
import type { OutputSensitivityResult } from '../../experiments/output-sensitivity';
import { choiceView, testFigure } from '../types';
import Figure5 from './Figure5.svelte';
import { fig5Json, fig5Table } from './downloads';

export type Perturbation = 'random' | 'sign';

export interface Fig5View {
  perturbation: Perturbation;
}

export const fig5 = testFigure<OutputSensitivityResult, Fig5View>({
  id: 'fig5',
  component: Figure5,
  strings: [
    'panel',
    'axisDepth',
    'axisSens',
    'guideLinear',
    'guideLog',
    'kind.label',
    'kind.random',
    'kind.sign',
    'readout', // {L} {values}
    'col.depth',
    'col.slope',
  ],
  slot: 'outputSensitivity',
  slotOf: (v) => (v.perturbation === 'sign' ? 'outputSensitivitySign' : 'outputSensitivity'),
  view: choiceView<Fig5View>('fig5', { perturbation: 'random' }, { perturbation: ['random', 'sign'] }),
  table: fig5Table,
  json: (doc, view) => fig5Json(doc, view.perturbation),
});
