// fig1/downloads.ts — what Figure 1's CSV and JSON downloads hold: its backward path, step by step,
// with the factor sentences as plain text (no engine numbers). Pure.
//   columns: step, post_node, pre_node, factor
import type { Table } from '../../lib/export';
import { plainInline } from '../../lib/plain-inline';
import { STEPS, nodeById } from './path';

/** Figure 1's steps with the factor sentences as plain text ({{key}} filled from `proseNumbers`). */
export function fig1Table(text: Record<string, string>, proseNumbers: Record<string, string> = {}): Table {
  const fill = (s: string) => plainInline(s.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (m, k: string) => proseNumbers[k] ?? m));
  const label = (row: 'post' | 'pre', id: string | null) =>
    id == null ? '' : id === 'finalLn' ? (text.finalLn ?? 'Final LN') : (text[`node_${id}`] ?? nodeById(row, id)?.label ?? id);
  return {
    columns: ['step', 'post_node', 'pre_node', 'factor'],
    rows: STEPS.map((s, i) => [i + 1, label('post', s.post), label('pre', s.pre), fill(text[s.factorKey] ?? s.factorKey)]),
  };
}

export function fig1Json(text: Record<string, string>, proseNumbers: Record<string, string>, state: { step: number; finalLn: boolean }) {
  const t = fig1Table(text, proseNumbers);
  return { state, steps: t.rows.map((r) => Object.fromEntries(t.columns.map((c, i) => [c, r[i]]))) };
}
