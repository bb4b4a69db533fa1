// series-table.ts — the data table of a figure whose series are placements: the x column, then
// for each measure one column per series (key `<placement><measure key>`, label the placement's
// name, with the measure's label after it when it has one), one row per x. Cells are preformatted
// (the measure's `value`). DataTable draws it. Pure.
import { placementLabel } from './placements';

export interface SeriesMeasure<S, X> {
  key: string;
  label?: string;
  value: (s: S, x: X) => string;
}

export function seriesTable<S extends { placement: string }, X extends string | number>(
  x: { key: string; label: string; values: readonly X[] },
  series: readonly S[],
  t: (key: string) => string,
  measures: readonly SeriesMeasure<S, X>[],
) {
  const col = (s: S, m: SeriesMeasure<S, X>) => `${s.placement}${m.key}`;
  return {
    columns: [
      { key: x.key, label: x.label },
      ...measures.flatMap((m) =>
        series.map((s) => ({
          key: col(s, m),
          label: m.label ? `${placementLabel(s.placement, t)} · ${m.label}` : placementLabel(s.placement, t),
          numeric: true,
        })),
      ),
    ],
    rows: x.values.map((v) => Object.fromEntries([[x.key, v], ...measures.flatMap((m) => series.map((s) => [col(s, m), m.value(s, v)]))])),
  };
}
