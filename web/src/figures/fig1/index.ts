// fig1/index.ts — Figure 1 as the page sees it (figures/types.ts FigureDef): the two one-layer
// diagrams and the backward walk, drawn from its strings alone (no result slot). Its view state is
// the walk's step and whether the Final LN is open; URL: fig1.step=1…6, fig1.ln=open|closed.
import type { FigureDef } from '../types';
import { checkInt } from '../../lib/format';
import { enumParam, fieldParam, written } from '../../lib/permalink';
import Figure1 from './Figure1.svelte';
import { fig1Json, fig1Table } from './downloads';
import { STEPS, TEXT_KEYS } from './path';

export interface Fig1View {
  /** 1…STEPS.length */
  step: number;
  finalLn: boolean;
}

export const fig1: FigureDef<Fig1View> = {
  id: 'fig1',
  series: 'article',
  component: Figure1,
  strings: TEXT_KEYS,
  slot: null,
  view: {
    key: 'fig1',
    initial: { step: 1, finalLn: false },
    params: {
      'fig1.step': fieldParam<Fig1View, 'step'>('step', (v) => checkInt(v, 1, STEPS.length), 'url.fig1.step'),
      'fig1.ln': enumParam<Fig1View, 'open' | 'closed'>(['open', 'closed'], (v) => ({ finalLn: v === 'open' }), 'url.fig1.ln'),
    },
    write: (s) => written(s.step !== 1 && ['fig1.step', String(s.step)], s.finalLn && ['fig1.ln', 'open']),
  },
  numbers: ({ text, proseNumbers, view }) => ({
    table: fig1Table(text, proseNumbers),
    json: fig1Json(text, proseNumbers, { step: view.step, finalLn: view.finalLn }),
  }),
  provenanceView: (v) => ({ step: v.step, final_ln: v.finalLn ? 'open' : 'closed' }),
};
