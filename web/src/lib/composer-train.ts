// composer-train.ts — "Train it": the composed placement trained in Figure 4's quick look (the grid
// table's `quick` preset, lib/settings.ts) beside Post-LN and Pre-LN, with and without warm-up (the
// preset's warm-ups), as one grid run with `placement_spec`, into Figure 4's run list. Pure.
// The spec runs under its preset's name when it is an unchanged literature preset (so Figure 4 and
// the run list label it by the preset's label), else as COMPOSED.
import type { Settings } from './fields';
import { FULL, configOf, referenceOf, type Config } from './fields';
import { COMPOSED, presetLabel, presetOf, specOf, valuesOf } from './composer';
import { GRID } from './settings';

/** The preset Figure 4's quick look is (the grid table's). */
const QUICK = GRID.presets!.find((p) => p.key === 'quick')!;

/** The name the composed placement trains under. */
export function trainName(s: Settings): string {
  const p = presetOf(s);
  return p && p !== 'pre-spec' && p !== 'post-spec' ? p : COMPOSED;
}

/** The grid config of "Train it" over the grid's reference config `gridRef` (its precomputed
 *  document's): the quick look, placements Post-LN, Pre-LN and the composed one, its spec. */
export function trainConfig(s: Settings, gridRef: Config | null): Config {
  const ref = referenceOf(GRID, gridRef);
  const name = trainName(s);
  const c = configOf(GRID, ref, { base: FULL, values: { ...QUICK.set } });
  return { ...c, placements: ['post', 'pre', name], placement_spec: specOf(valuesOf(s), name, presetLabel(s) ?? COMPOSED) };
}
