// fig2/index.ts — Figure 2 as the page sees it (figures/types.ts FigureDef): the Pre-LN stack, drawn
// from the probe slot (whose live-run settings Figure 3 edits). Its view state is the selected
// layer; URL: fig2.layer=1…6|final (absent: the top layer). An embed of it carries the probe's
// settings too.
import type { ProbeResult } from '../../engine/documents';
import { checkInt } from '../../lib/format';
import { written } from '../../lib/permalink';
import type { FigureDef } from '../types';
import Figure2 from './Figure2.svelte';
import { fig2Json, fig2Table } from './downloads';

/** Layers drawn by Figure 2 (the probe's model has 6 layers, in the full and the small config). */
export const FIG2_LAYERS = 6;

export interface Fig2View {
  /** the selected layer (1…L) or the Final LN; null = the top layer */
  layer: number | 'final' | null;
}

export const fig2: FigureDef<Fig2View, ProbeResult> = {
  id: 'fig2',
  series: 'article',
  component: Figure2,
  strings: [
    'readoutLayer', // {l}
    'readoutNorm', // {v} {l}
    'readoutGain', // {g} (= {gain})
    'readoutFinalOut',
    'finalLn',
    'hint',
    'col.layer',
    'col.norm2',
    'col.std',
    'col.lo',
    'col.hi',
  ],
  slot: 'probe',
  view: {
    key: 'fig2',
    initial: { layer: null },
    params: {
      'fig2.layer': {
        parse: (v) => {
          if (v === 'final') return { layer: 'final' };
          const x = checkInt(v, 1, FIG2_LAYERS);
          return x == null ? null : { layer: x };
        },
        reason: 'url.fig2.layer',
      },
    },
    write: (s) => written(s.layer != null && s.layer !== FIG2_LAYERS && ['fig2.layer', String(s.layer)]),
  },
  numbers: ({ doc, view }) => ({ table: fig2Table(doc), json: fig2Json(doc, view.layer) }),
  provenanceView: (v) => ({ layer: v.layer ?? 'top' }),
};
