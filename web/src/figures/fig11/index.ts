// fig11/index.ts — Figure B (`fig11`) as the page sees it (figures/types.ts FigureDef): Figure 3a at depth
// 24 with Appendix F's predicted decay, and the norm's and the residual Jacobian's factors on the
// gradient per layer (the `depth-factors` experiment, docs/experiments.md). Its view state is the
// placement of panel (b); URL: fig11.placement=pre (absent: Post-LN).
import type { DepthFactorsResult } from '../../experiments/depth-factors';
import { PLACEMENTS } from '../../generated/engine-schema';
import { choiceView, testFigure } from '../types';
import Figure11 from './Figure11.svelte';
import { fig11Json, fig11Table } from './downloads';

export interface Fig11View {
  placement: string;
}

export const fig11 = testFigure<DepthFactorsResult, Fig11View>({
  id: 'fig11',
  component: Figure11,
  strings: [
    'panelA',
    'panelB', // {placement}
    'axisLayer',
    'axisGrad',
    'axisFactor',
    'appendixF',
    'factor.norm',
    'factor.residual',
    'factor.layer',
    'guide.flat',
    'guide.appendixF',
    'placement.label',
    'readout', // {layer} {values} {factors}
  ],
  slot: 'depthFactors',
  view: choiceView<Fig11View>('fig11', { placement: 'post' }, { placement: PLACEMENTS }),
  table: fig11Table,
  json: fig11Json,
});
