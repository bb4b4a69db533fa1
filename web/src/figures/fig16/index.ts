// fig16/index.ts — the placement composer (`fig16`) as the page sees it (figures/types.ts FigureDef):
// a placement built from the engine's spec keys, drawn at init next to Post-LN and Pre-LN (the
// init-profile experiment, docs/experiments.md). Its view state is the spec's settings (lib/composer.ts
// COMPOSER: a preset `fig16.from=<name>` and the keys set away from it, `fig16.<key>=<value>`); it
// draws no result slot: its documents are its own (lib/composer-run.svelte.ts), precomputed as it
// opens (public/data/composer.json: the build draws it, a page fetches it before making it live) and
// live runs for every other spec.
import { initialSettings, paramGroup, type Settings } from '../../lib/fields';
import { COMPOSER, COMPOSER_FILE, presetLabel, presetOf, valuesOf, type ComposerPrecomputed } from '../../lib/composer';
import { composerRun } from '../../lib/composer-run.svelte';
import type { FigureDef } from '../types';
import Figure16 from './Figure16.svelte';
import { fig16Json, fig16Table } from './downloads';

export const fig16: FigureDef<Settings> = {
  id: 'fig16',
  series: 'test',
  component: Figure16,
  strings: [
    'composed',
    'computing',
    'refused', // {message}
    // the spec's rules across its keys, in the composer's words (lib/composer.ts COMPOSER.rules)
    ...Object.values(COMPOSER.rules ?? {}).map((r) => r.key),
    'readout', // {name} {ratio} {slope} {when}
    'when.live', // {ms}
    'when.precomputed',
    'band',
    'panelStream',
    'panelW2',
    'panelLast',
    'panelSens',
    'axisLayer',
    'axisDepth',
    'axisNorm',
    'axisGrad',
    'axisSens',
    'ctl.preset',
    'ctl.where',
    'ctl.norm',
    'ctl.residual',
    'ctl.init',
    'train',
    'trainNote',
    ...COMPOSER.rows.map((r) => `key.${r.field}`),
    // a select's choices, each in the reader's words: `choice.<field>.<value>`
    ...COMPOSER.rows.flatMap((r) => (COMPOSER.schema[r.field].choices ?? []).map((c) => `choice.${r.field}.${c}`)),
  ],
  slot: null,
  view: { ...paramGroup(COMPOSER), initial: initialSettings(COMPOSER) },
  numbers: ({ view }) => ({
    table: fig16Table(composerRun.reference, composerRun.composed),
    json: fig16Json(valuesOf(view), presetLabel(view), composerRun.reference, composerRun.composed),
  }),
  provenanceView: (v) => ({ preset: presetOf(v) ?? 'composed', spec: v.values }),
  ownDoc: () => (composerRun.composed ? { doc: composerRun.composed, liveAt: composerRun.at } : null),
  ownFile: { path: COMPOSER_FILE, use: (doc) => composerRun.usePrecomputed(doc as ComposerPrecomputed), load: () => composerRun.load() },
};
