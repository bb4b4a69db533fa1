// experiments.test.ts — the experiment declarations (web/src/experiments/) against the real
// documents: every slot's precomputed file exists, is its experiment's document and has the shape
// its declaration gives its type; every public/data/exp/*.json is some slot's (or the full document a
// summary is cut from, and the summary is its declaration's `summarize` of it, with the same
// verdict); the shape check itself finds what is wrong.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXPERIMENT_SLOTS, precomputedPath } from '../../web/src/lib/slots';
import { list, nullable, num, obj, oneOf, optional, record, shapeProblem } from '../../web/src/experiments/types';

const PUBLIC = new URL('../../public/', import.meta.url).pathname;
const read = (path: string) => JSON.parse(readFileSync(PUBLIC + path, 'utf8'));

describe.each(Object.entries(EXPERIMENT_SLOTS))('slot %s', (slot, e) => {
  const path = precomputedPath(slot as keyof typeof EXPERIMENT_SLOTS);
  it(`its document ${path} has the declared shape`, () => {
    expect(existsSync(PUBLIC + path)).toBe(true);
    const doc = read(path);
    expect(doc.experiment).toBe(e.experiment);
    expect(shapeProblem(e.shape, doc)).toBeNull();
    // a summary's full document (public/data/exp/NAME.json beside NAME.summary.json) has it too
    if (/\.summary$/.test(e.file)) expect(shapeProblem(e.shape, read(`data/exp/${e.file.replace(/\.summary$/, '')}.json`))).toBeNull();
  });
  // a summary is its declaration's `summarize` of the full document (scripts/precompute.mjs
  // summaries writes it), and its verdict is the full document's
  it.runIf(e.summarize)(`is what its summarize makes of the full document, with the same verdict`, () => {
    expect(e.file).toBe(`${e.experiment}.summary`);
    const [summary, full] = [read(path), read(`data/exp/${e.experiment}.json`)];
    expect(JSON.parse(JSON.stringify(e.summarize!(full as never)))).toEqual(summary);
    if (e.verdict) expect(e.verdict(summary as never)).toEqual(e.verdict(full as never));
  });
});

it('every precomputed experiment file is a slot’s', () => {
  const files = new Set(Object.values(EXPERIMENT_SLOTS).flatMap((e) => [e.file, e.file.replace(/\.summary$/, '')]));
  for (const f of readdirSync(PUBLIC + 'data/exp')) expect(files.has(f.replace(/\.json$/, ''))).toBe(true);
});

describe('shapeProblem', () => {
  const s = obj({ a: list(num), b: nullable(num), c: optional(oneOf('x', 'y')), d: record(obj({ e: num })) });
  it.each([
    [{ a: [1], b: null, d: {} }, null],
    [{ a: [1], b: 2, c: 'x', d: { p: { e: 1 } }, extra: true }, null],
    [{ a: [1, 'no'], b: null, d: {} }, 'a[1]: not a number'],
    [{ a: [], d: {} }, '(document): no key "b"'],
    [{ a: [], b: null, c: 'z', d: {} }, 'c: not one of x, y'],
    [{ a: [], b: null, d: { p: { e: null } } }, 'd.p.e: not a number'],
    [{ a: {}, b: null, d: {} }, 'a: not a list'],
    [[], '(document): not an object'],
  ])('%j → %s', (doc, why) => expect(shapeProblem(s, doc)).toBe(why));
});
