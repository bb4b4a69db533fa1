// The islands' pure parts (web/src/lib/islands.ts): which control of a live island a click or the
// focus on the static copy's control is given to; and the reader's place carried across a switch
// of language (web/src/page/spot.ts); the fields the static copy leaves out (web/src/prerender/fields.ts).
// Table-driven.
import { describe, expect, it } from 'vitest';
import { findKey, keyOf, signature } from '../../web/src/lib/islands';
import { PLACE_TTL_MS, SPOT_TTL_MS, freshSpot } from '../../web/src/page/spot';
import { withoutFields } from '../../web/src/prerender/fields';

const b = (over: Partial<Parameters<typeof signature>[0]> = {}) => signature({ tag: 'BUTTON', type: 'button', ...over });

describe('signature', () => {
  it.each([
    [{ tag: 'BUTTON', type: 'button' }, { tag: 'button', type: 'button' }, true],
    [{ tag: 'INPUT', type: 'radio', name: 's', value: 'a' }, { tag: 'INPUT', type: 'radio', name: 's', value: 'b' }, false],
    [{ tag: 'INPUT', type: 'checkbox', name: 'small' }, { tag: 'INPUT', type: 'checkbox', name: 'small' }, true],
    [{ tag: 'svg', role: 'slider' }, { tag: 'svg', role: null }, false],
    [{ tag: 'BUTTON', id: 'x' }, { tag: 'BUTTON', id: 'y' }, false],
  ])('%o and %o: same %s', (a, c, same) => expect(signature(a) === signature(c)).toBe(same));
});

describe('keyOf / findKey', () => {
  const staticSigs = [b(), b({ id: 'share' }), b(), signature({ tag: 'svg', role: 'slider' }), b()];
  it.each([
    // the third plain button of the static copy is the third of the live island's
    [staticSigs, 4, staticSigs, 4],
    [staticSigs, 0, staticSigs, 0],
    // the live island has one more control of another kind before it: still found
    [staticSigs, 2, [signature({ tag: 'INPUT', type: 'checkbox' }), ...staticSigs], 3],
    // the live island has a plain button more: which one was meant is not known, none is given the click
    [staticSigs, 2, [...staticSigs, b()], -1],
    // and one fewer
    [staticSigs, 4, staticSigs.slice(0, 4), -1],
  ])('static %#', (from, i, live, want) => expect(findKey(live, keyOf(from, i))).toBe(want));
  it('counts only the controls that share the signature', () => {
    expect(keyOf(staticSigs, 4)).toEqual({ sig: b(), index: 2, of: 3 });
    expect(keyOf(staticSigs, 3)).toEqual({ sig: signature({ tag: 'svg', role: 'slider' }), index: 0, of: 1 });
  });
});

describe('freshSpot', () => {
  const now = 1_000_000;
  const ok = { section: 'toy', block: 3, into: 0.25, at: now - 1000 };
  it.each([
    [ok, true],
    [{ ...ok, at: now - SPOT_TTL_MS }, false],
    [{ ...ok, at: now + 5 }, false],
    [{ ...ok, into: 1.5 }, false],
    [{ ...ok, block: -1 }, false],
    [{ ...ok, block: 1.5 }, false],
    [{ ...ok, section: 3 }, false],
    [{ ...ok, sub: 2 }, true],
    [{ ...ok, sub: 0 }, true],
    [{ ...ok, sub: -1 }, false],
    [{ ...ok, sub: 0.5 }, false],
    [{ ...ok, sub: '2' }, false],
    [{ ...ok, into: 0, dy: 120.5 }, true],
    [{ ...ok, into: 0, dy: -1 }, false],
    [{ ...ok, into: 0, dy: Number.NaN }, false],
    [{ ...ok, into: 0, dy: '120' }, false],
    [null, false],
    ['toy', false],
  ])('%o: %s', (s, want) => expect(freshSpot(s, now)).toBe(want));
  // a place kept for a reload lives longer than a spot carried to the other language
  it.each([
    [now - SPOT_TTL_MS, PLACE_TTL_MS, true],
    [now - PLACE_TTL_MS + 1, PLACE_TTL_MS, true],
    [now - PLACE_TTL_MS, PLACE_TTL_MS, false],
    [now - SPOT_TTL_MS, SPOT_TTL_MS, false],
  ])('saved at %d, ttl %d: %s', (at, ttl, want) => expect(freshSpot({ ...ok, at }, now, ttl)).toBe(want));
});

describe('withoutFields (the static copy holds no field a browser fills in)', () => {
  it.each([
    ['<label>d <input type="text" name="d" value="128"/></label>', '<label>d </label>'],
    ['<input name="x">', ''],
    ['<input type="number" value="2">', ''],
    ['<input type="checkbox" name="small" checked/>', '<input type="checkbox" name="small" checked/>'],
    ['<input type="radio" name="s" value="a"/>', '<input type="radio" name="s" value="a"/>'],
    ['<input type="file" data-import hidden/>', '<input type="file" data-import hidden/>'],
    ['<textarea rows="3">x</textarea>', ''],
    ['<select><option value="post">Post-LN</option><option value="pre" selected>Pre-LN</option></select>', '<span class="select-static">Pre-LN</span>'],
    ['<select class="a"><option value="post">Post-LN</option></select>', '<span class="select-static">Post-LN</span>'],
    ['<select></select>', '<span class="select-static"></span>'],
  ])('%s', (html, want) => expect(withoutFields(html)).toBe(want));
});
