// series-table.ts — the data tables figures show (DataTable draws them), cells preformatted. Pure.
// rowsTable: a row per x (the x column first), then a column per entry, each cell the entry's `value`
// at that x.
// seriesTable: a figure whose series are placements: the x column, then for each measure one column
// per series (key `<placement><measure key>`, label the placement's name, with the measure's label
// after it when it has one), one row per x (the measure's `value`).
// stepRowsTable: a figure of panels over steps, transposed: a row per line drawn, a column per step;
// figureStepTable: the same with the figure's own caption and first column (its strings tableCaption,
// col.series).
import { placementLabel } from './placements';
import { ft } from './text';
import type { FigureText } from '../content/types';

export interface SeriesMeasure<S, X> {
  key: string;
  label?: string;
  value: (s: S, x: X) => string;
}

/** A column of rowsTable: its DataTable column and its cell at each x. */
export interface RowsColumn<X> {
  key: string;
  label: string;
  numeric?: boolean;
  value: (x: X) => string;
}

/** A table with a row per value of `x.values` (its first cell the value, or `x.format` of it) and a
 *  column per entry of `columns` after the x column. */
export function rowsTable<X extends string | number>(
  x: { key: string; label: string; values: readonly X[]; format?: (v: X) => string },
  columns: readonly RowsColumn<X>[],
) {
  return {
    columns: [{ key: x.key, label: x.label }, ...columns.map(({ key, label, numeric }) => (numeric ? { key, label, numeric } : { key, label }))],
    rows: x.values.map((v) => Object.fromEntries([[x.key, x.format ? x.format(v) : v], ...columns.map((c) => [c.key, c.value(v)])])),
  };
}

export function seriesTable<S extends { placement: string }, X extends string | number>(
  x: { key: string; label: string; values: readonly X[] },
  series: readonly S[],
  t: (key: string) => string,
  measures: readonly SeriesMeasure<S, X>[],
) {
  return rowsTable(
    x,
    measures.flatMap((m) =>
      series.map((s) => ({
        key: `${s.placement}${m.key}`,
        label: m.label ? `${placementLabel(s.placement, t)} · ${m.label}` : placementLabel(s.placement, t),
        numeric: true,
        value: (v: X) => m.value(s, v),
      })),
    ),
  );
}

/** A figure's table with a row per line drawn (`name`, then its `value` at each step) and a column
 *  per step of `steps` (key `t<step>`), after the names' column (key `s`, label `nameLabel`). */
export function stepRowsTable(
  caption: string,
  nameLabel: string,
  steps: readonly number[],
  lines: readonly { name: string; value: (step: number) => string }[],
) {
  return {
    caption,
    columns: [{ key: 's', label: nameLabel }, ...steps.map((s) => ({ key: `t${s}`, label: String(s), numeric: true }))],
    rows: lines.map((l) => Object.fromEntries([['s', l.name], ...steps.map((st) => [`t${st}`, l.value(st)])])),
  };
}

/** stepRowsTable under the figure's own strings: its `tableCaption`, and `col.series` over the lines' names. */
export const figureStepTable = (text: FigureText, steps: readonly number[], lines: readonly { name: string; value: (step: number) => string }[]) =>
  stepRowsTable(ft(text, 'tableCaption'), ft(text, 'col.series'), steps, lines);

/** A line's name in a step table: its panel, then its series (and which part of it, for a series
 *  drawn in parts), with the page language's colon and list separator (page-chrome sep.colon,
 *  sep.list): "Post-LN: Adam, all", "Post-LN：Adam，全部". */
export const lineName = (t: (k: string) => string, panel: string, series: string, part?: string): string =>
  `${panel}${t('sep.colon')}${series}${part ? `${t('sep.list')}${part}` : ''}`;
