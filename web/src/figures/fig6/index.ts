// fig6/index.ts — Figure A (`fig6`) as the page sees it (figures/types.ts FigureDef): Figure 3c's depth
// sweep for tied or untied output and with or without the √d input scale (the `tied-output`
// experiment, docs/experiments.md), and the initial model's probability of the current token.
// Its view state is the drawn variant; URL: fig6.output=untied, fig6.input=none (absent: the
// article's model, tied with √d).
import type { TiedOutputResult } from '../../experiments/tied-output';
import { choiceView, testFigure } from '../types';
import Figure6 from './Figure6.svelte';
import { fig6Json, fig6Table } from './downloads';
import type { InputChoice, OutputChoice } from './transform';

export interface Fig6View {
  output: OutputChoice;
  input: InputChoice;
}

export const fig6 = testFigure<TiedOutputResult, Fig6View>({
  id: 'fig6',
  component: Figure6,
  strings: [
    'panelA',
    'panelB',
    'axisDepth',
    'axisGrad',
    'axisP',
    'extrapolation',
    'uniform',
    'output.label',
    'output.tied',
    'output.untied',
    'input.label',
    'input.sqrt_d',
    'input.none',
    'readout', // {L} {values} {p}
    'col.variant',
    'col.slope',
  ],
  slot: 'tiedOutput',
  view: choiceView<Fig6View>('fig6', { output: 'tied', input: 'sqrt_d' }, { output: ['tied', 'untied'], input: ['sqrt_d', 'none'] }),
  table: fig6Table,
  json: fig6Json,
  provenanceView: (v) => ({ output: v.output, input_scale: v.input }),
});
