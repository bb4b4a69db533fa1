// typed-form.ts — a test helper: a slot's settings form (lib/lab.svelte.ts SlotForm) with values typed
// in as a reader would, for the form's unit tests (fields.test.ts) and the form-against-engine table
// (tests/wasm/forms.test.ts).
import type { Config, Row, Table } from '../../web/src/lib/fields';
import { SlotForm } from '../../web/src/lib/lab.svelte';

/** What is typed: a field's text, or for a checkbox group the values ticked (they replace the ticked ones). */
export type Typed = Record<string, string | readonly (string | number)[]>;

const rowOf = (t: Table, field: string): Row => t.rows.find((r) => r.field === field)!;

/** A form over table `t` whose reference document's config is `doc()`, on the small setting `base`
 *  when given, with `typed` typed in (a select chooses, a text field takes the text). */
export function typedForm(t: Table, doc: () => Config | null, typed: Typed = {}, base?: string): SlotForm {
  const f = new SlotForm(t, doc);
  if (base) f.setBase(base);
  for (const [k, v] of Object.entries(typed)) {
    const r = rowOf(t, k);
    if (typeof v !== 'string') {
      for (const x of (f.now[k] as (string | number)[]) ?? []) f.toggle(r, x, false);
      for (const x of v) f.toggle(r, x, true);
    } else if (r.control === 'select') f.choose(r, v);
    else f.input(r, v);
  }
  return f;
}
