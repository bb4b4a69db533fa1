// sharing-docs.test.ts — docs/sharing.md's table of the run settings' URL parameters is generated
// from the field tables (lib/settings.ts: each row's key, its bounds as the lab checks them, the
// engine field's doc), between the markers below: this fails when the committed table is not what
// the tables make now. `npm run gen:content-docs` writes it (LNX_WRITE_CONTENT_DOCS=1).
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { figureNumber, LINKS } from '../../web/src/figures/registry';
import { FULL, boundsOf, rangeText, type Row, type Table } from '../../web/src/lib/fields';
import { tableOf, viewTableOf } from '../../web/src/lib/settings';
import { SLOT_NAMES, type SlotName } from '../../web/src/lib/slots';
import { UI_STRINGS } from '../../web/src/content/ui-strings';

const START = '<!-- run settings: generated from lib/settings.ts by tests/unit/sharing-docs.test.ts (npm run gen:content-docs) -->';
const END = '<!-- run settings: end -->';
const code = (xs: readonly (string | number)[]) => xs.map((x) => `\`${x}\``).join(', ');

/** What a row's parameter takes, from its bounds (the engine's, as the lab tightens them). */
function values(t: Table, r: Row): string {
  const b = boundsOf(t, r);
  const why = r.lab ? ` (the lab's: ${UI_STRINGS.en[`field.why.${r.lab.why}`]})` : '';
  if (b.info.type === 'bool') return code(['true', 'false']);
  if (b.info.type === 'choice') return code(b.choices);
  if (b.info.type === 'choice[]') return `1–${Math.min(b.items, b.choices.length)} of ${code(b.choices)}, comma-separated`;
  if (b.info.type === 'uint[]' && r.control === 'number') return `\`1\` … \`${b.max}\`: seeds 0 … n−1${why}`;
  const range = b.minExclusive ? rangeText(b) : `\`${b.min}\` … \`${b.max}\``;
  if (b.list) return `1–${b.items} ${b.integer ? 'integers' : 'numbers'} in ${range}, comma-separated${why}`;
  return `${range}${why}`;
}

/** The figure that shows the form, as the page names it. */
const figureOf = (t: Table) => {
  const n = figureNumber(t.figure);
  return n && /^\d/.test(n) ? `Figure ${n}` : `Figure ${n} (\`${t.figure}\`)`;
};

/** A field table's rows of the docs' table: its small setting or preset (`bases`, said as `basesWhat`),
 *  then a row per field, each naming `what` the table is. */
const tableRows = (t: Table, what: string, basesWhat: string) => [
  ...(t.bases ? [`| \`${t.bases.url}\` | ${code([FULL, ...Object.keys(t.bases.values)])} | ${what}: ${basesWhat} |`] : []),
  ...t.rows.map((r) => `| \`${r.url}\` | ${values(t, r)} | ${what}: ${t.schema[r.field].doc} |`),
];

export function runSettingsTable(): string {
  const lines = ['| parameter | values | what it sets |', '|---|---|---|'];
  const slots = LINKS.groups()
    .map((g) => g.key)
    .filter((k): k is SlotName => (SLOT_NAMES as readonly string[]).includes(k));
  for (const slot of slots) {
    const t = tableOf(slot);
    const what = `${figureOf(t)}, ${t.kind === 'grid' || t.kind === 'probe' ? `the ${t.kind}` : `\`${t.kind}\``}${t.slot === 'outputSensitivitySign' ? " (Adam's sign step)" : ''}`;
    if (t.rows.length) lines.push(...tableRows(t, what, `the small setting (default \`${t.bases?.initial ?? FULL}\`)`));
  }
  return lines.join('\n');
}

/** The rows of the figures whose view is a field table (the composer's placement spec, lib/composer.ts). */
export function viewTablesRows(): string {
  const lines: string[] = ['| parameter | values | what it sets |', '|---|---|---|'];
  for (const t of LINKS.groups().flatMap((g) => viewTableOf(g.key) ?? [])) {
    const what = `${figureOf(t)}, the placement spec`;
    lines.push(...tableRows(t, what, `the preset the keys below are read against (default \`${FULL}\`: Pre-LN)`));
  }
  return lines.join('\n');
}
const VIEW_START = '<!-- view tables: generated from lib/composer.ts by tests/unit/sharing-docs.test.ts (npm run gen:content-docs) -->';
const VIEW_END = '<!-- view tables: end -->';

it('docs/sharing.md lists the run settings as the field tables make them', () => {
  const file = new URL('../../docs/sharing.md', import.meta.url);
  let md = readFileSync(file, 'utf8');
  const a = md.indexOf(VIEW_START);
  const b = md.indexOf(VIEW_END);
  expect(a >= 0 && b > a, 'docs/sharing.md has the view tables markers').toBe(true);
  md = `${md.slice(0, a + VIEW_START.length)}\n${viewTablesRows()}\n${md.slice(b)}`;
  const i = md.indexOf(START);
  const j = md.indexOf(END);
  expect(i >= 0 && j > i, 'docs/sharing.md has the markers').toBe(true);
  const made = `${md.slice(0, i + START.length)}\n${runSettingsTable()}\n${md.slice(j)}`;
  md = readFileSync(file, 'utf8');
  if (process.env.LNX_WRITE_CONTENT_DOCS) writeFileSync(file, made);
  expect(md, 'docs/sharing.md: run `npm run gen:content-docs`').toBe(made);
});
