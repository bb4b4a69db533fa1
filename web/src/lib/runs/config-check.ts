// runs/config-check.ts — a stored or imported run's settings against the engine's own ranges (the
// generated schema: web/src/generated/engine-schema.ts, from wasm/configs.cpp). Pure. A run whose
// settings the engine would refuse is kept and drawn (its document passed its own checks), but the
// run list marks it, naming each setting and the range the engine takes, so that neither its
// numbers nor "Run again" pass for a run the engine could make.
import { EXPERIMENT_INFO, GRID_FIELDS, PROBE_FIELDS, type ExperimentName, type FieldInfo } from '../../generated/engine-schema';
import { EXPERIMENT_SLOTS, type ExperimentSlot, type SlotName } from '../slots';
import { specProblems } from '../composer';

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
  // a placement spec's placement is one more choice of `placement` and `placements` (by its name)
  const spec = config.placement_spec;
  const parsed =
    typeof spec === 'string'
      ? (() => {
          try {
            return JSON.parse(spec) as unknown;
          } catch {
            return null;
          }
        })()
      : spec;
  const specName = parsed && typeof parsed === 'object' ? String((parsed as { name?: unknown }).name ?? 'custom') : null;
  for (const [k, v] of Object.entries(config)) {
    const g = fields[k];
    const f = g && specName && (k === 'placement' || k === 'placements') ? { ...g, choices: [...(g.choices ?? []), specName] } : g;
    if (!f && DESCRIPTIVE[slot]?.includes(k)) continue;
    if (!f) {
      out.push(`${k.slice(0, 40)} (not a setting of this figure's engine run)`);
      continue;
    }
    // a placement spec: each of its keys by the engine's table, named by its path
    if (f.type === 'object' && k === 'placement_spec' && v != null) {
      out.push(...specProblems(v));
      continue;
    }
    const p = valueProblem(f, v);
    if (p) out.push(`${k} = ${show(v)} (the engine takes ${p})`);
  }
  return out;
}
