// layers.test.ts — which folders of web/src may import which. Every import (static, dynamic,
// import.meta.glob) of every .ts/.svelte file is resolved and checked against the table; a figure is
// known to the page only through figures/registry.ts, so lib/, components/, content/ and engine/
// never import figures/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../web/src/', import.meta.url));
const ROOT = resolve(SRC, '../..');

/** folder of web/src → the folders (of web/src, or of the repository for '/public') it may import */
// generated/ is what scripts/gen-schema.mjs writes from the engine's schema: every layer may read it.
const MAY_IMPORT: [string, string[]][] = [
  // experiments/: each experiment's declaration (its slots, document shape, verdict rules), below lib
  ['experiments', ['experiments', 'engine', 'generated']],
  ['lib', ['lib', 'experiments', 'engine', 'content', 'generated']],
  ['engine', ['engine', '/public', 'generated']],
  ['content', ['content', 'generated']],
  ['components', ['components', 'lib', 'experiments', 'engine', 'content', 'generated']],
  ['figures', ['figures', 'components', 'lib', 'experiments', 'engine', 'content', 'generated']],
  ['generated', []],
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|svelte)$/.test(n) ? [p] : [];
  });
}

/** A relative specifier after `from`, `import(`, a bare `import` or `import.meta.glob(`. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|import\.meta\.glob(?:<[^>]*>)?\(\s*\[?\s*)['"`](\.[^'"`]*)['"`]/g;
const specifiers = (src: string) => [...src.matchAll(IMPORT)].map((m) => m[1]);
const importsOf = (file: string) => specifiers(readFileSync(file, 'utf8'));

/** Where a specifier lands: the top folder of web/src it names, or '/<folder>' outside web/src. */
function target(file: string, spec: string): string {
  const to = resolve(dirname(file), spec);
  const inSrc = relative(SRC, to);
  return inSrc.startsWith('..') ? '/' + relative(ROOT, to).split(/[\\/]/)[0] : inSrc.split(/[\\/]/)[0];
}

describe.each(MAY_IMPORT)('web/src/%s imports only from %j', (folder, allowed) => {
  const all = files(join(SRC, folder));
  it('has files to check', () => expect(all.length).toBeGreaterThan(0));
  it.each(all.map((f) => [relative(SRC, f), f]))('%s', (_, file) => {
    const bad = importsOf(file).filter((s) => !allowed.includes(target(file, s)));
    expect(bad).toEqual([]);
  });
});

describe('the checker itself', () => {
  it.each([
    ["import { FIGURES } from '../figures/registry';", '../figures/registry'],
    ["import type { Fig1View } from '../figures/fig1';", '../figures/fig1'],
    ["const m = import('../figures/fig1/Figure1.svelte');", '../figures/fig1/Figure1.svelte'],
    ["import.meta.glob<{ default: unknown }>('../figures/*/index.ts')", '../figures/*/index.ts'],
    ["import '../figures/fig2/style.css';", '../figures/fig2/style.css'],
  ])('sees %s', (line, spec) => {
    const file = join(SRC, 'lib', '__probe__.ts');
    expect(specifiers(line)).toEqual([spec]);
    expect(target(file, spec)).toBe('figures');
  });
});
