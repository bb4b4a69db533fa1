// fig13/index.ts — the Figure of claim 10 (`fig13`) as the page sees it (figures/types.ts FigureDef):
// DeepNorm with and without warm-up at Figure 4's peak lrs, beside Post-LN and Pre-LN, every seed's
// escape step from the plateau (the `phase-diagram` experiment's `deepNorm` slot,
// docs/experiments.md). No view state of its own (NoView).
import type { PhaseDiagramResult } from '../../experiments/phase-diagram';
import { testFigure } from '../types';
import Figure13 from './Figure13.svelte';
import { fig13Json, fig13Table } from './downloads';

export const fig13 = testFigure<PhaseDiagramResult>({
  id: 'fig13',
  component: Figure13,
  slot: 'deepNorm',
  strings: [
    'panel', // {lr}
    'axisEscape',
    'row.none', // {placement}
    'row.warmup', // {placement} {warmup}
    'never',
    'neverNote', // {steps}: the drawn run's length
    'neverNoteRef', // {steps} {ref}: the drawn run's length, and the muted reference's where it differs
    'readout', // {lr} {values}
    'readout.row', // {outcome} {escape} {loss}
    'col.row',
  ],
  table: fig13Table,
  json: fig13Json,
});
