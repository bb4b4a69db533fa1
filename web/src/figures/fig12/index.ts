// fig12/index.ts — the sharpness figure (`fig12`) as the page sees it (figures/types.ts FigureDef):
// Adam's and GI-Adam's preconditioned sharpness λ_max(P⁻¹H) against the stability threshold through
// the first steps, per placement, with and without warm-up (the `sharpness` experiment,
// docs/experiments.md). No view state of its own (NoView).
import type { SharpnessResult } from '../../experiments/sharpness';
import { testFigure } from '../types';
import Figure12 from './Figure12.svelte';
import { fig12Json, fig12Table } from './downloads';

export const fig12 = testFigure<SharpnessResult>({
  id: 'fig12',
  component: Figure12,
  slot: 'sharpness',
  strings: [
    'panel', // {placement} {warmup}
    'axisStep',
    'axisSharpness',
    'threshold',
    'series', // {optimizer} {seed}
    'readout', // {panel} {t} {values}
    'readout.value', // {lambda} {ratio}
    'col.series',
    'tableCaption',
  ],
  table: fig12Table,
  json: fig12Json,
});
