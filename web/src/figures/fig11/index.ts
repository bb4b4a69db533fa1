// fig11/index.ts — Figure B (`fig11`) as the page sees it (figures/types.ts FigureDef): Figure 3a at depth
// 24 with Appendix F's predicted decay, and the norm's and the residual Jacobian's factors on the
// gradient per layer (the `depth-factors` experiment, docs/experiments.md). Its view state is the
// placement of panel (b); URL: fig11.placement=pre (absent: Post-LN).
import type { DepthFactorsResult } from '../../experiments/depth-factors';
import { PLACEMENTS } from '../../generated/engine-schema';
import { written } from '../../lib/permalink';
import type { FigureDef } from '../types';
import Figure11 from './Figure11.svelte';
import { fig11Json, fig11Table } from './downloads';

export interface Fig11View {
  placement: string;
}

export const fig11: FigureDef<Fig11View, DepthFactorsResult> = {
  id: 'fig11',
  series: 'test',
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
    'readout.item', // {name} {v}
    'ctl.small', // {layers} {d} {seeds}
  ],
  slot: 'depthFactors',
  view: {
    key: 'fig11',
    initial: { placement: 'post' },
    params: {
      'fig11.placement': {
        parse: (v) => ((PLACEMENTS as readonly string[]).includes(v) ? { placement: v } : null),
        reason: 'url.fig11.placement',
      },
    },
    write: (s) => written(s.placement !== 'post' && ['fig11.placement', s.placement]),
  },
  numbers: ({ doc, view }) => ({ table: fig11Table(doc), json: fig11Json(doc, view) }),
  provenanceView: (v) => ({ placement: v.placement }),
};
