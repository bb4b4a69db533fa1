// fig3/index.ts — Figure 3 as the page sees it (figures/types.ts FigureDef): gradients at
// initialisation, drawn from the probe slot. Its view state is panel (a)'s statistic; URL:
// fig3.stat=paper|batch. It shows the probe's settings form (shared with Figure 2), whose URL
// parameters fig3.model, fig3.seeds, … are the probe's field table's (lib/settings.ts PROBE).
import type { ProbeResult } from '../../engine/documents';
import { enumParam, written } from '../../lib/permalink';
import type { FigureDef } from '../types';
import Figure3 from './Figure3.svelte';
import { fig3Json, fig3Table } from './downloads';
import type { Stat } from './transform';

export interface Fig3View {
  /** panel (a)'s statistic */
  stat: Stat;
}

export const fig3: FigureDef<Fig3View, ProbeResult> = {
  id: 'fig3',
  series: 'article',
  component: Figure3,
  strings: [
    'panelA',
    'panelB',
    'panelC',
    'stat.label',
    'paperStat',
    'perBatch',
    'axisLayer',
    'axisGrad',
    'axisNorm',
    'axisDepth',
    'band',
    'extrapolation',
    'ctl.small', // {d}: the small setting's
    'ctl.model',
    'ctl.layers', // the label of the probe's layers (its own: panels (a) and (b) only)
    'err.memory',
    'readoutA', // {l} {values}: the placements' readoutA.item, joined
    'readoutA.item', // {name} {v} {sd}
    'readoutB', // {l} {values} {lo} {hi}
    'readoutB.item', // {name} {v}
    'readoutC', // {L} {values} {extrap}
    'readoutC.item', // {name} {v} {paper}
    'col.layer',
    'col.depth',
  ],
  slot: 'probe',
  view: {
    key: 'fig3',
    initial: { stat: 'W2_per_layer' },
    params: {
      'fig3.stat': enumParam<Fig3View, 'paper' | 'batch'>(
        ['paper', 'batch'],
        (v) => ({ stat: v === 'batch' ? 'W2_per_batch' : 'W2_per_layer' }),
        'url.fig3.stat',
      ),
    },
    write: (s) => written(s.stat === 'W2_per_batch' && ['fig3.stat', 'batch']),
  },
  numbers: ({ doc, view }) => ({ table: fig3Table(doc), json: fig3Json(doc, view.stat) }),
  provenanceView: (v) => ({ statistic: v.stat }),
};
