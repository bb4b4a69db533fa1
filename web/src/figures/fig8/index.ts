// fig8/index.ts — Figure H (`fig8`) as the page sees it (figures/types.ts FigureDef): the escape step from
// the plateau against the warm-up's length, per placement and optimizer (the `warmup-length`
// experiment, docs/experiments.md; the page loads its summary without loss curves). View state: the
// lr drawn, each optimizer's smallest or largest; URL: fig8.lr=high (absent: the smallest).
import type { WarmupLengthResult } from '../../experiments/warmup-length';
import { choiceView, testFigure } from '../types';
import Figure8 from './Figure8.svelte';
import { fig8Json, fig8Table } from './downloads';
import type { LrPick } from './transform';

export interface Fig8View {
  lr: LrPick;
}

export const fig8 = testFigure<WarmupLengthResult, Fig8View>({
  id: 'fig8',
  component: Figure8,
  strings: [
    'panel',
    'axisWarmup',
    'axisEscape',
    'never',
    'lr.label',
    'lr.lo',
    'lr.hi',
    'series', // {placement} {optimizer} {lr}
    'readout', // {w} {values}
    'col.series',
  ],
  slot: 'warmupLength',
  view: choiceView<Fig8View>('fig8', { lr: 'lo' }, { lr: { lo: 'low', hi: 'high' } }),
  table: fig8Table,
  json: (doc, view) => fig8Json(doc, view.lr),
});
