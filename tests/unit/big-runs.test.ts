// A large stored run, end to end of its pure parts: what the stored-run worker hands the page and
// the page reads back (web/src/lib/runs/stored-check.ts packNumbers / unpackNumbers), the checks it
// runs there (readHere), and the thinning of a long series for drawing
// (web/src/components/common/chart.ts thin). Table-driven where it can be.
import { describe, expect, it } from 'vitest';
import { PACK_MIN, packNumbers, readHere, unpackNumbers } from '../../web/src/lib/runs/stored-check';
import { thin, type XY } from '../../web/src/components/common/chart';
import { SLOT_NAMES } from '../../web/src/lib/slots';

const long = (n: number, f = (i: number) => i * 0.5) => Array.from({ length: n }, (_, i) => f(i));

describe('packNumbers / unpackNumbers', () => {
  it.each([
    ['a short list stays a list', { loss: [1, 2, 3] }, 0],
    ['a long list of numbers, nulls kept', { runs: [{ loss: long(PACK_MIN, (i) => (i % 7 ? i / 3 : null) as number) }] }, 1],
    ['strings and objects untouched', { a: 'x', b: { c: [true, 'y', null] }, d: long(PACK_MIN + 1) }, 1],
    ['a long list with a string is not packed', { loss: [...long(PACK_MIN), 'x'] }, 0],
  ])('%s', (_, doc, packed) => {
    const transfer: ArrayBuffer[] = [];
    const p = packNumbers(doc, transfer);
    expect(transfer).toHaveLength(packed);
    expect(unpackNumbers(structuredClone(p))).toEqual(doc);
  });
  it('a packed list is a Float64Array whose buffer is transferred', () => {
    const transfer: ArrayBuffer[] = [];
    const p = packNumbers({ loss: long(PACK_MIN) }, transfer) as { loss: { f64: Float64Array } };
    expect(p.loss.f64).toBeInstanceOf(Float64Array);
    expect(transfer).toEqual([p.loss.f64.buffer]);
  });
});

describe('readHere (the worker checks what it read)', () => {
  const entry = (over: Record<string, unknown>) => ({
    id: 'r1',
    slot: 'grid',
    name: '#1',
    createdAt: '2026-01-01T00:00:00.000Z',
    config: { steps: 3 },
    status: 'done',
    elapsedMs: 1,
    doc: null,
    ...over,
  });
  it('keeps the good, nulls and names the bad', async () => {
    const values = [entry({ status: 'partial' }), entry({ slot: 'nope' }), 7];
    const r = await readHere(async () => values, SLOT_NAMES);
    expect(r.values).toEqual([values[0], null, null]);
    expect(r.problems[0]).toBeNull();
    expect(r.problems[1]).toMatch(/not one this page draws/);
    expect(r.problems[2]).toMatch(/not an object/);
  });
});

describe('thin', () => {
  const pts = (ys: number[]): XY[] => ys.map((y, i) => ({ x: i + 1, y }));
  it('leaves a series that fits as it is (the same array)', () => {
    const p = pts(long(400));
    expect(thin(p, 400)).toBe(p);
  });
  it('keeps every bucket’s first, last, lowest and highest point, in order', () => {
    const p = pts(long(100000, (i) => Math.sin(i / 50) + (i === 51234 ? 9 : 0) - (i === 7777 ? 9 : 0)));
    const t = thin(p, 4000);
    expect(t.length).toBeLessThanOrEqual(4000);
    expect(t[0]).toBe(p[0]);
    expect(t.at(-1)).toBe(p.at(-1));
    expect(t).toContain(p[51234]);
    expect(t).toContain(p[7777]);
    expect(t.every((q, i) => i === 0 || q.x > t[i - 1].x)).toBe(true);
    expect(Math.max(...t.map((q) => q.y))).toBe(Math.max(...p.map((q) => q.y)));
  });
  it('keeps a gap a gap', () => {
    const p = pts(long(10000, (i) => (i === 4321 ? NaN : i)));
    expect(thin(p, 400).some((q) => Number.isNaN(q.y))).toBe(true);
  });
});
