// fig19/index.ts — real text beside the Markov chain (`fig19`) as the page sees it (figures/types.ts
// FigureDef): the quick look's Post-LN and Pre-LN runs, with and without warm-up, on the bytes of the
// page's own article, training and validation loss against the text's unigram entropy (the
// `real-text` experiment, docs/experiments.md). No view state of its own (NoView).
import type { RealTextResult } from '../../experiments/real-text';
import { testFigure } from '../types';
import Figure19 from './Figure19.svelte';
import { fig19Json, fig19Table } from './downloads';

export const fig19 = testFigure<RealTextResult>({
  id: 'fig19',
  component: Figure19,
  strings: [
    'panel', // {lang}
    'axisStep',
    'axisLoss',
    'plateau', // {v}
    'series', // {placement} {warmup}
    'train',
    'val',
    'readout', // {panel} {t} {values}
    'readout.value', // {train}
    'readout.valueVal', // {train} {val}
    'col.series',
    'tableCaption',
  ],
  slot: 'realText',
  table: fig19Table,
  json: fig19Json,
});
