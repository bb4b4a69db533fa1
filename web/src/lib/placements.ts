// placements.ts — the page's placements: the engine's registry (generated/engine-schema.ts), in its
// order, each with its label, colour and marker. The label is the engine's own ("Post-LN", the same
// in both languages), unless the page strings (content/ui-strings.ts) hold a `placement.<name>` for
// a language that writes it otherwise; the colour is the token
// --series-<name> of styles/tokens.css, else --series-other; the marker cycles through the shapes
// in registry order. A placement the engine adds is drawn without any change here. Pure.
import { SHAPES, type Shape } from './marker';
import { PLACEMENTS, PLACEMENT_INFO, PLACEMENT_PRESETS, type PlacementName } from '../generated/engine-schema';

export { PLACEMENTS, type PlacementName };

/** The placements among `names`, in the engine's order (unknown names dropped). */
export const inRegistryOrder = (names: Iterable<string>): PlacementName[] => {
  const set = new Set(names);
  return PLACEMENTS.filter((p) => set.has(p));
};

/** The placements among `names` as a figure draws them: the registered ones in the engine's order,
 *  then a placement_spec's (the composer's "Train it") in the order given. */
export const inDrawOrder = (names: Iterable<string>): PlacementName[] => {
  const all = [...new Set(names)];
  return [...inRegistryOrder(all), ...all.filter((n) => !(PLACEMENTS as readonly string[]).includes(n))] as PlacementName[];
};

/** The CSS colour of a placement's series. */
export const placementColor = (p: string): string => `var(--series-${p}, var(--series-other))`;

/** The marker of a placement's points. */
export const placementShape = (p: string): Shape => {
  const i = (PLACEMENTS as readonly string[]).indexOf(p);
  return SHAPES[(i < 0 ? PLACEMENTS.length : i) % SHAPES.length];
};

/** How the page names a placement: its string, else the engine's label (a registered placement's or
 *  a named preset's: a spec run under a preset's name), else the name itself. */
export function placementLabel(p: string, t: (key: string) => string): string {
  const key = `placement.${p}`;
  const s = t(key);
  if (s && s !== key) return s;
  // a registered placement's label, else a preset spec's of that name (placements/presets/*.json)
  return PLACEMENT_INFO.find((x) => x.name === p)?.label ?? PLACEMENT_PRESETS.find((x) => x.name === p)?.label ?? p;
}

/** The legend entries of per-placement series: each placement's name, colour and (unless
 *  `shape` is false) marker. */
export const placementLegend = (series: readonly { placement: string }[], t: (key: string) => string, shape = true) =>
  series.map((s) => ({ label: placementLabel(s.placement, t), color: placementColor(s.placement), ...(shape ? { shape: placementShape(s.placement) } : {}) }));
