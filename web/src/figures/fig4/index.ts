// fig4/index.ts — Figure 4 as the page sees it (figures/types.ts FigureDef): the toy warm-up grid,
// drawn from the grid slot, whose live-run settings it edits. No view state of its own in the URL;
// the grid's settings: fig4.lrs=0.001,0.003 fig4.warmups=0,300 fig4.seeds=1…4 fig4.steps=10…1000
// (each only when it differs from the precomputed grid's).
import type { GridConfig, GridResult } from '../../engine/documents';
import { checkInt } from '../../lib/format';
import {
  GRID_BOUNDS,
  GRID_DEFAULTS,
  checkLrs,
  checkWarmups,
  gridInputsOf,
  gridSettingsOf,
  resolveGrid,
  sameGrid,
  type GridSettings,
} from '../../lib/grid-settings';
import { fieldParam, sameList, written } from '../../lib/permalink';
import type { FigureDef } from '../types';
import Figure4 from './Figure4.svelte';
import { fig4Json, fig4Table } from './numbers';

export type Fig4View = Record<string, never>;

const { seeds, steps } = GRID_BOUNDS;

export const fig4: FigureDef<Fig4View, GridResult, GridSettings> = {
  id: 'fig4',
  component: Figure4,
  strings: [
    'panel', // {lr}
    'axisStep',
    'axisLoss',
    'noWarmup',
    'warmup', // {w}; without {w} it is used as it is for 300 steps
    'lnOpt',
    'plateau',
    'ref.uniform',
    'diverged', // {s}
    'seedsHint', // {n}
    'seedsHintOne',
    'readout', // {step} {lr} {values}
    'ctl.lrs',
    'ctl.warmups',
    'ctl.seeds',
    'ctl.steps',
    'err.lrs',
    'err.warmups',
    'err.seeds',
    'err.steps',
    'col.norm',
    'col.warmup',
    'col.lr',
    'col.status',
    'col.at', // {s}
  ],
  slot: 'grid',
  view: { key: 'fig4', initial: {}, params: {}, write: () => [] },
  run: {
    key: 'grid',
    params: {
      'fig4.lrs': fieldParam<GridSettings, 'lrs'>('lrs', checkLrs, 'fig4:err.lrs'),
      'fig4.warmups': fieldParam<GridSettings, 'warmups'>('warmups', checkWarmups, 'fig4:err.warmups'),
      'fig4.seeds': fieldParam<GridSettings, 'seeds'>('seeds', (v) => checkInt(v, seeds.min, seeds.max), 'fig4:err.seeds'),
      'fig4.steps': fieldParam<GridSettings, 'steps'>('steps', (v) => checkInt(v, steps.min, steps.max), 'fig4:err.steps'),
    },
    write: (s, d) =>
      written(
        !sameList(s.lrs, d.lrs) && ['fig4.lrs', s.lrs.map(String).join(',')],
        !sameList(s.warmups, d.warmups) && ['fig4.warmups', s.warmups.map(String).join(',')],
        s.seeds !== d.seeds && ['fig4.seeds', String(s.seeds)],
        s.steps !== d.steps && ['fig4.steps', String(s.steps)],
      ),
    of: (c) => gridSettingsOf(c as GridConfig | null | undefined),
    fallback: GRID_DEFAULTS,
    resolve: resolveGrid,
    same: sameGrid,
    fill: (results, s) => {
      results.gridTouched = true;
      results.gridInputs = gridInputsOf(s);
    },
    start: (results) => void results.recomputeGridFromInputs(),
  },
  numbers: ({ doc }) => ({ table: fig4Table(doc), json: fig4Json(doc) }),
  provenanceView: (_, live) => ({ streaming: live.streaming }),
};
