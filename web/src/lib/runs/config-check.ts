// runs/config-check.ts — a stored or imported run's settings against the engine's own ranges (the
// generated schema: web/src/generated/engine-schema.ts, from wasm/configs.cpp). Pure. A run whose
// settings the engine would refuse is kept and drawn (its document passed its own checks), but the
// run list marks it, naming each setting and the range the engine takes, so that neither its
// numbers nor "Run again" pass for a run the engine could make.
import { EXPERIMENT_INFO, GRID_FIELDS, PROBE_FIELDS, type ExperimentName, type FieldInfo } from '../../generated/engine-schema';
import { EXPERIMENT_SLOTS, type ExperimentSlot, type SlotName } from '../slots';

/** The engine's fields of a slot's config. */
export function fieldsOf(slot: SlotName): Readonly<Record<string, FieldInfo>> | null {
  if (slot === 'probe') return PROBE_FIELDS;
  if (slot === 'grid') return GRID_FIELDS;
  const exp = EXPERIMENT_SLOTS[slot as ExperimentSlot]?.experiment as ExperimentName | undefined;
  return exp ? EXPERIMENT_INFO[exp].fields : null;
}

/** Keys the engine writes into a document's config to describe it, not settings one runs with. */
const DESCRIPTIVE: Partial<Record<SlotName, readonly string[]>> = { probe: ['targets'] };

const show = (v: unknown): string => {
  const s = Array.isArray(v) ? v.map(show).join(', ') : typeof v === 'string' ? `"${v}"` : String(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
};

/** Why one value is outside a field's range, or null. */
function valueProblem(f: FieldInfo, v: unknown): string | null {
  // a placement spec: the engine checks its inside (wasm/placements/spec.cpp)
  if (f.type === 'object') return (v !== null && typeof v === 'object' && !Array.isArray(v)) || typeof v === 'string' ? null : 'a JSON object';
  const base = f.type.replace('[]', '');
  if (f.type.endsWith('[]')) {
    if (!Array.isArray(v)) return 'a list';
    if (f.maxItems != null && v.length > f.maxItems) return `at most ${f.maxItems} values`;
    for (const x of v) {
      const p = valueProblem({ ...f, type: base as FieldInfo['type'] }, x);
      if (p) return p;
    }
    return null;
  }
  if (base === 'choice') return f.choices?.includes(v as string) ? null : `one of ${f.choices?.join(', ')}`;
  const ok =
    typeof v === 'number' &&
    Number.isFinite(v) &&
    (base === 'number' || Number.isInteger(v)) &&
    (f.min == null || (f.minExclusive ? v > f.min : v >= f.min)) &&
    (f.max == null || v <= f.max);
  if (ok) return null;
  const kind = base === 'number' ? 'a number' : 'a whole number';
  if (f.min != null && f.max != null) return `${kind} ${f.minExclusive ? 'above' : 'from'} ${f.min} to ${f.max}`;
  return kind;
}

/** Each setting of `config` the engine would refuse for `slot`: "d = 1000000000 (the engine takes a
 *  whole number from 2 to 4096)", or an unknown setting. Empty when the engine would take them all. */
export function outOfRange(slot: SlotName, config: Record<string, unknown>): string[] {
  const fields = fieldsOf(slot);
  if (!fields) return [];
  const out: string[] = [];
  // a placement_spec names a placement of its own, which the placement fields then take
  const spec = config.placement_spec;
  const specName = spec && typeof spec === 'object' && typeof (spec as { name?: unknown }).name === 'string' ? (spec as { name: string }).name : null;
  for (const [k, raw] of Object.entries(config)) {
    const f = fields[k];
    const named = specName != null && (k === 'placements' || k === 'placement');
    const v = named ? (Array.isArray(raw) ? raw.filter((x) => x !== specName) : raw === specName ? undefined : raw) : raw;
    if (named && v === undefined) continue;
    if (!f && DESCRIPTIVE[slot]?.includes(k)) continue;
    if (!f) {
      out.push(`${k.slice(0, 40)} (not a setting of this figure's engine run)`);
      continue;
    }
    const p = valueProblem(f, v);
    if (p) out.push(`${k} = ${show(v)} (the engine takes ${p})`);
  }
  return out;
}
