// fig5/index.ts — Figure E (`fig5`) as the page sees it (figures/types.ts FigureDef): the output's
// sensitivity to a small change of every weight, against depth, for every placement (the
// `output-sensitivity` experiment, docs/experiments.md). Its view state is which perturbation is
// drawn, each its own document: a random one (slot outputSensitivity) or Adam's sign step (slot
// outputSensitivitySign). URL: fig5.perturbation=sign (absent: random).
import type { OutputSensitivityResult } from '../../experiments/output-sensitivity';
import { written } from '../../lib/permalink';
import type { FigureDef } from '../types';
import Figure5 from './Figure5.svelte';
import { fig5Json, fig5Table } from './downloads';

export type Perturbation = 'random' | 'sign';

export interface Fig5View {
  perturbation: Perturbation;
}

export const fig5: FigureDef<Fig5View, OutputSensitivityResult> = {
  id: 'fig5',
  series: 'test',
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
    'readout.item', // {name} {v}
    'col.depth',
    'col.slope',
    'ctl.small',
  ],
  slot: 'outputSensitivity',
  slotOf: (v) => (v.perturbation === 'sign' ? 'outputSensitivitySign' : 'outputSensitivity'),
  view: {
    key: 'fig5',
    initial: { perturbation: 'random' },
    params: {
      'fig5.perturbation': {
        parse: (v) => (v === 'sign' || v === 'random' ? { perturbation: v } : null),
        reason: 'url.fig5.perturbation',
      },
    },
    write: (s) => written(s.perturbation === 'sign' && ['fig5.perturbation', 'sign']),
  },
  numbers: ({ doc, view }) => ({ table: fig5Table(doc), json: fig5Json(doc, view.perturbation) }),
  provenanceView: (v) => ({ perturbation: v.perturbation }),
};
