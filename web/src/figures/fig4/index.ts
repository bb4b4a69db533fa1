// fig4/index.ts — Figure 4 as the page sees it (figures/types.ts FigureDef): the toy warm-up grid,
// drawn from the grid slot. No view state of its own in the URL. It shows the grid's settings form,
// whose URL parameters fig4.placements, fig4.lrs, … are the grid's field table's (lib/settings.ts GRID).
import type { GridResult } from '../../engine/documents';
import type { FigureDef } from '../types';
import Figure4 from './Figure4.svelte';
import { fig4Json, fig4Table } from './downloads';
import { buildPanels } from './transform';

export type Fig4View = Record<string, never>;

export const fig4: FigureDef<Fig4View, GridResult> = {
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
    'plateauText', // the plateau line of a run on the article's text: its unigram entropy
    'textHint', // {lang} {v}: a run on the article's text is drawn on top: its plateau, no optimum
    'dataHint', // under the data select when it is text: such runs go to the CPU engine
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
    'lrHint', // {lr}: the chosen optimizer's suggested peak lr
    'err.runs',
    'preset.label',
    'preset.quick',
    'preset.full',
    'ctl.model',
    'err.memory',
    'err.gridMemory',
    'ctl.arch',
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
  numbers: ({ doc }) => ({ table: fig4Table(doc), json: fig4Json(doc) }),
  // a long run's panels (its seed means and plateau shares) are built once per document: here,
  // before the run is drawn, in a task of their own (transform.ts buildPanels)
  prepare: (doc) => void buildPanels(doc),
  // the run drawn on top when it is not complete: streaming, or cancelled / failed up to where it got
  provenanceView: (_, live) => ({ streaming: live.streaming, ...(live.state && live.state !== 'done' ? { drawn_run: live.state } : {}) }),
};
