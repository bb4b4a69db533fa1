// fig3/index.ts — Figure 3 as the page sees it (figures/types.ts FigureDef): gradients at
// initialisation, drawn from the probe slot, whose live-run settings it edits (shared with Figure 2).
// Its view state is panel (a)'s statistic; URL: fig3.stat=paper|batch, and the probe's settings
// fig3.model=full|small, fig3.seeds=1…5, fig3.batches=1…20, fig3.depths=6,8,…, and the model's sizes
// fig3.layers, fig3.d, fig3.d_ff, fig3.batch, fig3.seq (the lab's MODEL_KNOBS) (each only when it
// differs from the precomputed probe's, read against the small preset when fig3.model=small).
import type { ProbeConfig, ProbeResult } from '../../engine/documents';
import { checkInt } from '../../lib/format';
import { knobBounds, knobParam, MODEL_KNOBS } from '../../lib/grid-settings';
import { enumParam, fieldParam, sameList, written } from '../../lib/permalink';
import { PROBE_DEFAULTS, checkDepths, probeBase, probeSettingsOf, resolveProbe, sameProbe, validateProbe, type ProbeSettings } from '../../lib/probe-settings';
import type { FigureDef } from '../types';
import Figure3 from './Figure3.svelte';
import { fig3Json, fig3Table } from './downloads';
import type { Stat } from './transform';

export interface Fig3View {
  /** panel (a)'s statistic */
  stat: Stat;
}

export const fig3: FigureDef<Fig3View, ProbeResult, ProbeSettings> = {
  id: 'fig3',
  series: 'article',
  component: Figure3,
  strings: [
    'panelA',
    'panelB',
    'panelC',
    'stat.label',
    'paperStat',
    'perBatch',
    'axisLayer',
    'axisGrad',
    'axisNorm',
    'axisDepth',
    'band',
    'extrapolation',
    'ctl.seeds',
    'ctl.batches',
    'ctl.depths',
    'ctl.small',
    'err.seeds',
    'err.batches',
    'err.depths',
    'ctl.model',
    ...MODEL_KNOBS.flatMap(({ name }) => [`ctl.${name}`, `err.${name}`]), // {min} {max}
    'err.memory',
    'readoutA', // {l} {values}: the placements' readoutA.item, joined
    'readoutA.item', // {name} {v} {sd}
    'readoutB', // {l} {values} {lo} {hi}
    'readoutB.item', // {name} {v}
    'readoutC', // {L} {values} {extrap}
    'readoutC.item', // {name} {v} {paper}
    'col.layer',
    'col.depth',
  ],
  slot: 'probe',
  view: {
    key: 'fig3',
    initial: { stat: 'W2_per_layer' },
    params: {
      'fig3.stat': enumParam<Fig3View, 'paper' | 'batch'>(
        ['paper', 'batch'],
        (v) => ({ stat: v === 'batch' ? 'W2_per_batch' : 'W2_per_layer' }),
        'url.fig3.stat',
      ),
    },
    write: (s) => written(s.stat === 'W2_per_batch' && ['fig3.stat', 'batch']),
  },
  run: {
    key: 'probe',
    params: {
      'fig3.model': enumParam<ProbeSettings, 'full' | 'small'>(['full', 'small'], (v) => ({ small: v === 'small' }), 'url.fig3.model'),
      'fig3.seeds': fieldParam<ProbeSettings, 'seeds'>('seeds', (v) => checkInt(v, 1, 5), 'fig3:err.seeds'),
      'fig3.batches': fieldParam<ProbeSettings, 'batches'>('batches', (v) => checkInt(v, 1, 20), 'fig3:err.batches'),
      'fig3.depths': fieldParam<ProbeSettings, 'depths'>('depths', checkDepths, 'url.fig3.depths'),
      ...Object.fromEntries(MODEL_KNOBS.map(({ name }) => [`fig3.${name}`, knobParam<ProbeSettings>(name, `fig3:err.${name}`)])),
    },
    write: (s, d) => {
      const base = probeBase(s.small, d);
      return written(
        s.small && ['fig3.model', 'small'],
        s.seeds !== base.seeds && ['fig3.seeds', String(s.seeds)],
        s.batches !== base.batches && ['fig3.batches', String(s.batches)],
        !sameList(s.depths, base.depths) && ['fig3.depths', s.depths.join(',')],
        ...MODEL_KNOBS.map(
          ({ name }): [string, string] | false => s.model?.[name] != null && s.model[name] !== base.model?.[name] && [`fig3.${name}`, String(s.model[name])],
        ),
      );
    },
    of: (c) => probeSettingsOf(c as ProbeConfig | null | undefined, c as ProbeConfig | null), // the precomputed probe: no sizes of its own
    fallback: PROBE_DEFAULTS,
    resolve: resolveProbe,
    same: sameProbe,
    fill: (results, s) => void Object.assign(results.probeControls, { ...s, depths: [...s.depths], model: { ...s.model } }),
    form: (results) => (Object.keys(validateProbe(results.probeControls)).length ? null : results.probeConfigNow()),
    start: (results, opts) => void results.recomputeProbe(undefined, opts),
  },
  stringVars: Object.fromEntries(MODEL_KNOBS.map(({ name }) => [`err.${name}`, knobBounds(name)])),
  numbers: ({ doc, view }) => ({ table: fig3Table(doc), json: fig3Json(doc, view.stat) }),
  provenanceView: (v) => ({ statistic: v.stat }),
};
