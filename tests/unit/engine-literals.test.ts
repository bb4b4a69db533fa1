// engine-literals.test.ts — no bound or default of the engine is written as a literal in web/src
// (issue 28): the page reads them from web/src/generated/engine-schema.ts (the engine's schema), so
// a change of the engine reaches it by itself. For every field, the numbers the schema gives it
// (min, max, most entries, scalar default) that are not common small numbers (an integer from −1 to
// 10), and its default list, are looked for where a copy would be written: as the field's value
// (`d: 512`, 'depths': [6, 8, 10, 12, 14], batches = 20, seq=64), in the page's code (web/src
// outside generated/) and in the strings of its figures and chrome (content/: not the article's
// prose and code listing, which state the source article's own settings, the IWSLT model and the
// printed PyTorch code; the engine's numbers reach the prose through {{keys}}, lib/prose-numbers.ts).
// Two kinds of value may hold one, each checked elsewhere: a lab tightening (`why:` on its line),
// which tests/unit/fields.test.ts checks lies strictly inside the engine's bound, so it is never a
// copy of it; and a value a table's preset or base sets, which fields.test.ts checks differs from
// the reference's (no default restated). The test is shown to catch the copies main had before the
// field tables (lines of its probe-settings.ts and grid-settings.ts, below).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as S from '../../web/src/generated/engine-schema';
import type { FieldInfo } from '../../web/src/generated/engine-schema';
import { UI_STRINGS } from '../../web/src/content/ui-strings';
import en from '../../web/src/content/en';
import zh from '../../web/src/content/zh';
import { tableOf } from '../../web/src/lib/settings';
import { SLOT_NAMES } from '../../web/src/lib/slots';

const root = new URL('../../', import.meta.url).pathname;
const schemas: Record<string, FieldInfo>[] = [
  S.MODEL_FIELDS,
  S.PROBE_FIELDS,
  S.TRAIN_FIELDS,
  S.GRID_FIELDS,
  ...Object.values(S.EXPERIMENT_INFO).map((e) => e.fields),
];
const common = (x: number) => Number.isInteger(x) && x >= -1 && x <= 10;

/** field → the engine's numbers of it, and its default lists */
const numbers = new Map<string, Set<number>>();
const lists = new Map<string, string[]>();
for (const schema of schemas)
  for (const [name, f] of Object.entries(schema)) {
    for (const x of [f.min, f.max, f.maxItems, f.default])
      if (typeof x === 'number' && !common(x)) (numbers.get(name) ?? numbers.set(name, new Set()).get(name)!).add(x);
    if (Array.isArray(f.default) && f.default.length > 1 && f.default.every((x) => typeof x === 'number'))
      (lists.get(name) ?? lists.set(name, []).get(name)!).push(JSON.stringify(f.default));
  }

/** field=value pairs a table's preset or base sets: deliberate settings, not copies */
const presets = new Set(
  SLOT_NAMES.flatMap((n) => {
    const t = tableOf(n);
    return [...Object.values(t.bases?.values ?? {}), ...(t.presets ?? []).map((p) => p.set)].flatMap((set) =>
      Object.entries(set).flatMap(([k, v]) => [`${k}=${JSON.stringify(v)}`, ...(Array.isArray(v) ? v.map((x) => `${k}=${x}`) : [])]),
    );
  }),
);

const NUMBER = String.raw`-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?`;
/** `field: value`, 'field': value, field = value, field=value; value a number or a list of numbers */
const VALUE = new RegExp(String.raw`(?<![\w.])['"]?(\w+)['"]?\s*[:=]\s*(\[[\d\s.,eE+-]*\]|${NUMBER})(?![\w.])`, 'g');

/** The values of the engine's numbers written as a field's value in `text` (one line). */
function copies(text: string): string[] {
  const out: string[] = [];
  if (/\bwhy:/.test(text)) return out; // a lab tightening (fields.test.ts: strictly inside the engine's bound)
  for (const [, field, v] of text.matchAll(VALUE)) {
    if (v.startsWith('[')) {
      const xs = v.slice(1, -1).split(',').map(Number);
      const list = JSON.stringify(xs);
      if (lists.get(field)?.includes(list) && !presets.has(`${field}=${list}`)) out.push(`${field}: ${list}`);
      for (const x of xs) if (numbers.get(field)?.has(x) && !presets.has(`${field}=${x}`)) out.push(`${field}: ${x}`);
    } else if (numbers.get(field)?.has(Number(v)) && !presets.has(`${field}=${Number(v)}`)) out.push(`${field}: ${v}`);
  }
  return out;
}

/** Where the page could hold a copy: each line of its code, each string of its chrome and figures. */
function places(): [string, string][] {
  const code = execFileSync('git', ['ls-files', 'web/src'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|js|svelte)$/.test(f) && !/\/(generated|content)\//.test(f));
  return [
    ...code.flatMap((f) =>
      readFileSync(root + f, 'utf8')
        .split('\n')
        .map((l, i): [string, string] => [`${f}:${i + 1}`, l]),
    ),
    ...(['en', 'zh'] as const).flatMap((lang) => [
      ...Object.entries(UI_STRINGS[lang]).map(([k, v]): [string, string] => [`ui-strings ${lang} ${k}`, `${k}: ${v}`]),
      ...Object.entries({ en, zh }[lang].figures).flatMap(([id, fig]) =>
        Object.entries(fig).map(([k, v]): [string, string] => [`${lang}.figures.${id}.${k}`, String(v)]),
      ),
    ]),
  ];
}

describe("the engine's bounds and defaults are read, never written, in web/src", () => {
  it('knows what to look for, and where', () => {
    expect(numbers.get('d')).toEqual(new Set([4096, 512, 128, 32])); // 32: init-profile's (the composer's) default
    expect(lists.get('depths')).toContain('[6,8,10,12,14]');
    expect(places().length).toBeGreaterThan(10000);
  });
  it('catches the copies main had before the field tables (web/src/lib/probe-settings.ts, grid-settings.ts at c98926f)', () => {
    expect(copies('export const PROBE_DEFAULTS: ProbeSettings = { seeds: 5, batches: 20, depths: [6, 8, 10, 12, 14], small: false };')).toEqual([
      'batches: 20',
      'depths: [6,8,10,12,14]',
    ]);
    expect(copies('export const PROBE_MODEL = { layers: 6, d: 512, d_ff: 1024, vocab: 1000, seq: 32, batch: 8 } as const;')).toEqual([
      'd: 512',
      'd_ff: 1024',
      'vocab: 1000', // (seq: 32 is also a setting of Figure 4's quick look: not counted)
    ]);
    expect(copies('  lrs: [0.001, 0.003],')).toEqual(['lrs: [0.001,0.003]']);
    expect(copies('  steps: 500,')).toEqual(['steps: 500']);
    // and not the lab's own bound, nor a setting of a preset
    expect(copies("  d: { max: 512, why: 'short' },")).toEqual([]);
    expect(copies('small: { depths: [8, 16], seeds: [0] }')).toEqual([]);
  });
  it('no line of the page writes one', () => expect(places().flatMap(([at, text]) => copies(text).map((c) => `${at}: ${c}`))).toEqual([]));
});
