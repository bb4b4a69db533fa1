// fig8/index.ts — Figure G (`fig8`) as the page sees it (figures/types.ts FigureDef): the escape step from
// the plateau against the warm-up's length, per placement and optimizer (the `warmup-length`
// experiment, docs/experiments.md; the page loads its summary without loss curves). View state: the
// lr drawn, each optimizer's smallest or largest; URL: fig8.lr=high (absent: the smallest).
import type { WarmupLengthResult } from '../../experiments/warmup-length';
import { written } from '../../lib/permalink';
import type { FigureDef } from '../types';
import Figure8 from './Figure8.svelte';
import { fig8Json, fig8Table } from './downloads';
import type { LrPick } from './transform';

export interface Fig8View {
  lr: LrPick;
}

export const fig8: FigureDef<Fig8View, WarmupLengthResult> = {
  id: 'fig8',
  series: 'test',
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
    'readout.item', // {name} {v}
    'col.series',
    'ctl.small', // {steps} {layers}
  ],
  slot: 'warmupLength',
  view: {
    key: 'fig8',
    initial: { lr: 'lo' },
    params: { 'fig8.lr': { parse: (v) => (v === 'high' ? { lr: 'hi' } : v === 'low' ? { lr: 'lo' } : null), reason: 'url.fig8.lr' } },
    write: (s) => written(s.lr === 'hi' && ['fig8.lr', 'high']),
  },
  numbers: ({ doc, view }) => ({ table: fig8Table(doc), json: fig8Json(doc, view.lr) }),
  provenanceView: (v) => ({ lr: v.lr }),
};
