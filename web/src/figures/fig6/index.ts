// fig6/index.ts — Figure A (`fig6`) as the page sees it (figures/types.ts FigureDef): Figure 3c's depth
// sweep for tied or untied output and with or without the √d input scale (the `tied-output`
// experiment, docs/experiments.md), and the initial model's probability of the current token.
// Its view state is the drawn variant; URL: fig6.output=untied, fig6.input=none (absent: the
// article's model, tied with √d).
import type { TiedOutputResult } from '../../experiments/tied-output';
import { written } from '../../lib/permalink';
import type { FigureDef } from '../types';
import Figure6 from './Figure6.svelte';
import { fig6Json, fig6Table } from './downloads';
import type { InputChoice, OutputChoice } from './transform';

export interface Fig6View {
  output: OutputChoice;
  input: InputChoice;
}

export const fig6: FigureDef<Fig6View, TiedOutputResult> = {
  id: 'fig6',
  series: 'test',
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
    'readout.item', // {name} {v}
    'col.variant',
    'col.slope',
    'ctl.small',
  ],
  slot: 'tiedOutput',
  view: {
    key: 'fig6',
    initial: { output: 'tied', input: 'sqrt_d' },
    params: {
      'fig6.output': { parse: (v) => (v === 'tied' || v === 'untied' ? { output: v } : null), reason: 'url.fig6.output' },
      'fig6.input': { parse: (v) => (v === 'sqrt_d' || v === 'none' ? { input: v } : null), reason: 'url.fig6.input' },
    },
    write: (s) => written(s.output === 'untied' && ['fig6.output', 'untied'], s.input === 'none' && ['fig6.input', 'none']),
  },
  numbers: ({ doc, view }) => ({ table: fig6Table(doc), json: fig6Json(doc, view) }),
  provenanceView: (v) => ({ output: v.output, input_scale: v.input }),
};
