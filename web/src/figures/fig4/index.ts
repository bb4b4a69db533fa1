// fig4/index.ts — Figure 4 as the page sees it (figures/types.ts FigureDef): the toy warm-up grid,
// drawn from the grid slot, whose live-run settings it edits. No view state of its own in the URL;
// the grid's settings: fig4.placements=post,pre,… fig4.lrs=0.001,0.003 fig4.warmups=0,300 fig4.seeds=1…4 fig4.steps=10…1000
// fig4.warmup_shape=linear|cosine fig4.optimizer=adam|sgd|radam and fig4.<setting> for each optimizer setting of the engine's schema
// (fig4.beta1, fig4.momentum, …), fig4.layers, fig4.d, … (MODEL_KNOBS) and fig4.norm_type, fig4.final_norm, fig4.output,
// fig4.input_scale (MODEL_CHOICES), each only when it differs from the precomputed grid's.
import type { GridConfig, GridResult } from '../../engine/documents';
import {
  ALL_OPTIMIZER_FIELDS,
  GRID_DEFAULTS,
  MODEL_KNOBS,
  MODEL_CHOICES,
  archOf,
  choiceParam,
  knobBounds,
  knobParam,
  LAB_LIMITS,
  checkHyper,
  fieldBounds,
  rangeText,
  checkLrs,
  checkPlacements,
  checkSeeds,
  checkSteps,
  checkWarmups,
  gridInputsOf,
  gridSettingsOf,
  resolveGrid,
  sameGrid,
  WARMUP_SHAPES,
  DEFAULT_WARMUP_SHAPE,
  type GridSettings,
  type WarmupShape,
} from '../../lib/grid-settings';
import { OPTIMIZERS } from '../../generated/engine-schema';
import { enumParam, fieldParam, sameList, written, type Param } from '../../lib/permalink';
import type { FigureDef } from '../types';
import Figure4 from './Figure4.svelte';
import { fig4Json, fig4Table } from './downloads';

export type Fig4View = Record<string, never>;

/** fig4.<setting>: one optimizer setting (the link's optimizer, or the default one, must have it). */
const hyperParam = (name: string): Param<GridSettings> => ({
  parse: (v) => {
    const x = checkHyper(name, v);
    return x == null ? null : ({ hyper: { [name]: x } } as Partial<GridSettings>);
  },
  reason: 'fig4:err.hyper',
});

export const fig4: FigureDef<Fig4View, GridResult, GridSettings> = {
  id: 'fig4',
  series: 'article',
  component: Figure4,
  strings: [
    'panel', // {lr}
    'axisStep',
    'axisLoss',
    'noWarmup',
    'warmup', // {w}: a warm-up length in steps
    'lnOpt',
    'plateau',
    'ref.uniform',
    'diverged', // {s}
    'seedsHint', // {n}
    'seedsHintOne',
    'seedsHintRuns', // the drawn runs differ in seeds: the legend says each one's
    'axisOnPlateau', // the plateau-share strip under each panel
    'shareHint', // {drop}: what the strip shows, and when a seed has left the plateau
    'fact.seeds', // {n}: a drawn run's legend entry, how many seeds
    'fact.seedsOne',
    'fact.steps', // {n}
    'readout', // {step} {lr} {values}
    'reference',
    'referenceMuted',
    'col.run',
    'ctl.placements',
    'ctl.lrs',
    'ctl.warmups',
    'ctl.warmupShape',
    'ctl.seeds',
    'ctl.steps',
    'ctl.optimizer',
    'lrHint', // {lr}: the chosen optimizer's suggested peak lr
    'err.lrs',
    'err.warmups',
    'err.warmupShape',
    'err.seeds',
    'err.steps',
    'err.optimizer',
    'err.hyper',
    'err.placements',
    'err.runs', // {max}
    'preset.label',
    'preset.quick',
    'preset.full',
    'ctl.model',
    ...MODEL_KNOBS.flatMap(({ name }) => [`ctl.${name}`, `err.${name}`]), // {min} {max}
    'err.memory',
    'err.gridMemory',
    'ctl.arch',
    ...MODEL_CHOICES.map((name) => `ctl.${name}`),
    'err.choice',
    'warn.warmup',
    'preset.deepnorm',
    'preset.preHighLr',
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
      'fig4.placements': fieldParam<GridSettings, 'placements'>('placements', (v) => checkPlacements(v.split(',').map((x) => x.trim())), 'fig4:err.placements'),
      'fig4.lrs': fieldParam<GridSettings, 'lrs'>('lrs', checkLrs, 'fig4:err.lrs'),
      'fig4.warmups': fieldParam<GridSettings, 'warmups'>('warmups', checkWarmups, 'fig4:err.warmups'),
      'fig4.warmup_shape': enumParam<GridSettings, WarmupShape>(WARMUP_SHAPES, (warmupShape) => ({ warmupShape }), 'fig4:err.warmupShape'),
      'fig4.seeds': fieldParam<GridSettings, 'seeds'>('seeds', checkSeeds, 'fig4:err.seeds'),
      'fig4.steps': fieldParam<GridSettings, 'steps'>('steps', checkSteps, 'fig4:err.steps'),
      'fig4.optimizer': enumParam<GridSettings, (typeof OPTIMIZERS)[number]>(OPTIMIZERS, (optimizer) => ({ optimizer }), 'fig4:err.optimizer'),
      ...Object.fromEntries(ALL_OPTIMIZER_FIELDS.map(([name]) => [`fig4.${name}`, hyperParam(name)])),
      ...Object.fromEntries(MODEL_KNOBS.map(({ name }) => [`fig4.${name}`, knobParam<GridSettings>(name, `fig4:err.${name}`)])),
      ...Object.fromEntries(MODEL_CHOICES.map((name) => [`fig4.${name}`, choiceParam<GridSettings>(name, 'fig4:err.choice')])),
    },
    write: (s, d) =>
      written(
        s.placements.join(',') !== d.placements.join(',') && ['fig4.placements', s.placements.join(',')],
        !sameList(s.lrs, d.lrs) && ['fig4.lrs', s.lrs.map(String).join(',')],
        !sameList(s.warmups, d.warmups) && ['fig4.warmups', s.warmups.map(String).join(',')],
        (s.warmupShape ?? DEFAULT_WARMUP_SHAPE) !== (d.warmupShape ?? DEFAULT_WARMUP_SHAPE) && ['fig4.warmup_shape', s.warmupShape ?? DEFAULT_WARMUP_SHAPE],
        s.seeds !== d.seeds && ['fig4.seeds', String(s.seeds)],
        s.steps !== d.steps && ['fig4.steps', String(s.steps)],
        s.optimizer !== d.optimizer && ['fig4.optimizer', s.optimizer],
        ...ALL_OPTIMIZER_FIELDS.map(
          ([name]): [string, string] | false => s.hyper?.[name] != null && s.hyper[name] !== d.hyper?.[name] && [`fig4.${name}`, String(s.hyper[name])],
        ),
        ...MODEL_KNOBS.map(
          ({ name }): [string, string] | false => s.model?.[name] != null && s.model[name] !== d.model?.[name] && [`fig4.${name}`, String(s.model[name])],
        ),
        ...MODEL_CHOICES.map((name): [string, string] | false => archOf(s, name) !== archOf(d, name) && [`fig4.${name}`, archOf(s, name)]),
      ),
    of: (c) => gridSettingsOf(c as GridConfig | null | undefined),
    fallback: GRID_DEFAULTS,
    resolve: resolveGrid,
    same: sameGrid,
    fill: (results, s) => {
      results.gridTouched = true;
      results.gridInputs = gridInputsOf(s);
    },
    form: (results) => results.gridConfig(),
    start: (results, opts) => void results.recomputeGridFromInputs(opts),
  },
  stringVars: {
    'err.lrs': { count: LAB_LIMITS.lrs, range: rangeText(fieldBounds('lrs')) },
    'err.warmups': { count: LAB_LIMITS.warmups, range: rangeText(fieldBounds('warmups')) },
    'err.seeds': { max: LAB_LIMITS.seeds },
    'err.steps': { min: LAB_LIMITS.minSteps, max: LAB_LIMITS.steps },
    'err.runs': { max: LAB_LIMITS.runs },
    ...Object.fromEntries(MODEL_KNOBS.map(({ name }) => [`err.${name}`, knobBounds(name)])),
  },
  numbers: ({ doc }) => ({ table: fig4Table(doc), json: fig4Json(doc) }),
  provenanceView: (_, live) => ({ streaming: live.streaming }),
};
