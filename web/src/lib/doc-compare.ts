// doc-compare.ts — does a live result reproduce the precomputed one? The page's precomputed
// documents come from the WebAssembly engine (scripts/precompute.mjs), whose arithmetic does not
// depend on the CPU or the thread count (docs/engine.md), so a live run with the same config in a
// reader's browser should give every number to the last bit; this says whether it did. Pure.
//   numbersOf(doc, skip)    every number of a document, depth first, object keys sorted, the keys
//                           in `skip` (provenance: engine, generated, …) left out
//   comparePrecomputed      'identical' | 'differs' (with the largest relative difference) for the
//                           same config and the same shape; null when the two cannot be compared
//                           (other settings, or the precomputed file is a summary of another shape)

import { withAddedKeys } from '../engine/documents';

/** Keys that say where and when a document was made, not what it measured. */
export const PROVENANCE_KEYS: readonly string[] = ['engine', 'generated', 'wall_seconds', 'precomputed'];

/** Object entries by key, in code-unit order (not localeCompare: its first call builds a collator,
 *  milliseconds on a phone, and both sides of a comparison only need the same order). */
const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

export function numbersOf(v: unknown, skip: readonly string[] = ['engine'], out: number[] = []): number[] {
  if (typeof v === 'number') out.push(v);
  else if (Array.isArray(v)) v.forEach((e) => numbersOf(e, skip, out));
  else if (v && typeof v === 'object') for (const [k, e] of Object.entries(v).sort(byKey)) if (!skip.includes(k)) numbersOf(e, skip, out);
  return out;
}

/** A JSON value with its object keys sorted (configs compare equal whatever their key order). */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(byKey)) : x));

/** Two configs ask for the same run (a key added to the engine later reads as its default: documents.ts). */
const sameConfig = (a: unknown, b: unknown): boolean => canonical(filled(a)) === canonical(filled(b));
const filled = (c: unknown) => (c && typeof c === 'object' && !Array.isArray(c) ? withAddedKeys(c as Record<string, unknown>) : c);

export type Reproduction = { kind: 'identical' } | { kind: 'differs'; maxRel: number; count: number } | null;

export function comparePrecomputed(live: { config?: unknown } | null, pre: { config?: unknown } | null): Reproduction {
  if (!live || !pre || live.config === undefined || !sameConfig(live.config, pre.config)) return null;
  const a = numbersOf(live, [...PROVENANCE_KEYS, 'config']),
    b = numbersOf(pre, [...PROVENANCE_KEYS, 'config']);
  if (a.length !== b.length || a.length === 0) return null;
  let maxRel = 0,
    count = 0;
  for (let i = 0; i < a.length; i++) {
    if (Object.is(a[i], b[i])) continue;
    count++;
    maxRel = Math.max(maxRel, Math.abs(a[i] - b[i]) / Math.max(Math.abs(b[i]), Number.MIN_VALUE));
  }
  return count === 0 ? { kind: 'identical' } : { kind: 'differs', maxRel, count };
}
