// fig16/downloads.ts — what the composer's (`fig16`) CSV and JSON downloads hold. Pure.
// The table is long (one row per drawn value): panel, placement, x (a layer or a depth), value; the
// JSON is the composed spec (the engine's nested form) with the reference's and the composed
// placement's init-profile documents as drawn.
import type { Cell, Table } from '../../lib/export';
import type { Config } from '../../lib/fields';
import { COMPOSED, specOf, type InitProfileDoc } from '../../lib/composer';
import { composerPanels } from './transform';

export function fig16Table(reference: InitProfileDoc | null, composed: InitProfileDoc | null): Table {
  const p = composerPanels(reference, composed);
  const rows: Cell[][] = (['stream', 'w2', 'last', 'sens'] as const).flatMap((panel) =>
    p[panel].series.flatMap((s) => s.points.map((q): Cell[] => [panel, s.name, q.x, q.y])),
  );
  return { columns: ['panel', 'placement', 'x', 'value'], rows };
}

export function fig16Json(values: Config, label: string | null, reference: InitProfileDoc | null, composed: InitProfileDoc | null) {
  return { spec: specOf(values, COMPOSED, label ?? COMPOSED), reference, composed };
}
