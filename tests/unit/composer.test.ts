// composer.test.ts — the placement composer's spec table (lib/composer.ts, over lib/fields.ts) and
// its panels (figures/fig16/transform.ts), table-driven: every engine preset reads back as its own
// spec; the spec rows parse, refuse and write as the table says (booleans included); a link's
// fig16.* parameters give the settings they name, and a bad one is refused naming the key; the
// init-profile documents become the four panels.
import { describe, expect, it } from 'vitest';
import { PLACEMENT_PRESETS, PLACEMENT_SPEC_FIELDS } from '../../web/src/generated/engine-schema';
import { FULL, errorText, fieldError, formatField, paramGroup, parseField, type Settings } from '../../web/src/lib/fields';
import {
  COMPOSED,
  COMPOSER,
  COMPOSER_PRESETS,
  flatOf,
  presetLabel,
  presetOf,
  profileConfig,
  specOf,
  specProblems,
  valuesOf,
  type InitProfileDoc,
} from '../../web/src/lib/composer';
import { reasonText } from '../../web/src/lib/settings';
import { outOfRange } from '../../web/src/lib/runs/config-check';
import { trainConfig, trainName } from '../../web/src/lib/composer-train';
import { composedHeadline, composerPanels } from '../../web/src/figures/fig16/transform';

const row = (field: string) => COMPOSER.rows.find((r) => r.field === field)!;
const t = (k: string) => k;

/** A spec without its texts and with the norm the config would give where it names none. */
const comparable = (spec: Record<string, unknown>) => {
  const { name: _n, label: _l, doc: _d, ...rest } = spec;
  return { norm: 'layernorm', qk_norm: 'none', b2t: false, ...rest };
};

describe('the composer spec table', () => {
  it('has a row for every key the engine describes, each with its URL key', () => {
    expect(COMPOSER.rows.map((r) => r.field).sort()).toEqual(Object.keys(PLACEMENT_SPEC_FIELDS).sort());
    for (const r of COMPOSER.rows) expect(r.url).toBe(`fig16.${r.field}`);
    expect(row('attention.norm_input').control).toBe('toggle');
    expect(row('residual_scale').control).toBe('select');
    expect(row('residual_scale.a').control).toBe('number');
  });

  it.each(PLACEMENT_PRESETS.map((p) => [p.name, p.spec] as const))('preset %s: its flat values write back as its spec', (name, spec) => {
    const values = COMPOSER_PRESETS.find((p) => p.name === name)!.values;
    expect(comparable(specOf(values, name))).toEqual(comparable(spec as Record<string, unknown>));
    expect(flatOf(specOf(values, name))).toEqual(values);
  });

  it.each([
    ['attention.norm_input', 'true', true],
    ['attention.norm_input', 'false', false],
    ['attention.norm_input', 'yes', null],
    ['norm', 'dyt', 'dyt'],
    ['norm', 'batchnorm', null],
    ['norm.alpha0', '0.5', 0.5],
    ['norm.alpha0', '0', null],
    ['norm.alpha0', '11', null],
    ['residual_scale.a', '4', 4],
    ['residual_scale.a', '-1', null],
    ['residual_scale.g0', '0', 0],
    ['residual_scale.per', 'layer', 'layer'],
  ] as const)('%s = %s parses to %s', (field, text, want) => {
    const p = parseField(COMPOSER, row(field), text);
    if (want == null) expect('error' in p).toBe(true);
    else expect(p).toEqual({ value: want });
  });

  it('names what a key must be', () => {
    expect(fieldError(COMPOSER, row('b2t')).key).toBe('field.err.bool');
    expect(errorText(fieldError(COMPOSER, row('residual_scale.a')), (k) => (k === 'field.err.number' ? 'in {range}' : k))).toBe('in (0, 4]');
    expect(formatField(COMPOSER, row('final_norm'), true)).toBe('true');
  });

  it('writes the keys that do not apply out of the spec (a CompleteP exponent under residual "one")', () => {
    const pre = valuesOf({ base: FULL, values: {} });
    expect(specOf(pre).residual_scale).toBe('one');
    const cp = specOf({ ...pre, residual_scale: 'completep', 'residual_scale.a': 0.5 });
    expect(cp.residual_scale).toEqual({ kind: 'completep', L_base: 1, a: 0.5 });
    const dyt = specOf({ ...pre, norm: 'dyt', 'norm.alpha0': 0.8 });
    expect(dyt.norm).toEqual({ kind: 'dyt', alpha0: 0.8 });
  });
});

describe('the composer in a link', () => {
  const group = paramGroup(COMPOSER);
  const parse = (key: string, v: string) => group.params[key]?.parse(v);

  it('opens at Pre-LN and writes nothing for it', () => {
    const s: Settings = { base: FULL, values: {} };
    expect(presetOf(s)).toBe('pre-spec');
    expect(presetLabel(s)).toBe('Pre-LN');
    expect(group.write(s, s)).toEqual([]);
  });

  it('reads a preset and the keys set away from it, and writes them back', () => {
    expect(parse('fig16.from', 'b2t')).toEqual({ base: 'b2t' });
    expect(parse('fig16.qk_norm', 'layernorm')).toEqual({ values: { qk_norm: 'layernorm' } });
    const s: Settings = { base: 'b2t', values: { qk_norm: 'layernorm' } };
    expect(group.write(s, { base: FULL, values: {} })).toEqual([
      ['fig16.from', 'b2t'],
      ['fig16.qk_norm', 'layernorm'],
    ]);
    expect(presetOf(s)).toBeNull();
  });

  it('refuses a bad key naming it, in the page’s words', () => {
    expect(parse('fig16.residual_scale.a', '0')).toBeNull();
    expect(parse('fig16.from', 'sandwich')).toBeNull();
    expect(parse('fig16.b2t', 'maybe')).toBeNull();
    expect(group.params['fig16.b2t'].reason).toBe('field:fig16:b2t');
    expect(reasonText('field:fig16:b2t', t)).toBe('field.err.bool');
  });

  it('gives the engine config of the composed placement', () => {
    const c = profileConfig({ base: 'dyt', values: {} });
    expect(c.placements).toEqual([COMPOSED]);
    expect((c.placement_spec as Record<string, unknown>).label).toBe('DyT');
    expect((c.placement_spec as Record<string, unknown>).norm).toEqual({ kind: 'dyt', alpha0: 0.5 });
  });
});

/** A small init-profile document: placements with L layers and depths 2, 4. */
function doc(names: string[], scale = 1): InitProfileDoc {
  const stats = (k: number) => ({
    W2_per_layer: { mean: [1 * k, 2 * k, 3 * k], std: [0.1, 0.1, 0.1] },
    W2_per_batch: { mean: [1, 2, 3], std: [0, 0, 0] },
    norm2_over_d: { mean: [1.5, 2, 2.5], std: [0, 0, 0] },
    final_ln_gain: { mean: 1, std: 0 },
    lemma2_band: { lo: [1.5, 2, 2.5], hi: [2.5, 4, 5.5] },
    lastW2_vs_L: {
      '4': { W2_per_layer: { mean: 0.5 * k, std: 0 }, W2_per_batch: { mean: 0, std: 0 } },
      '2': { W2_per_layer: { mean: 1 * k, std: 0 }, W2_per_batch: { mean: 0, std: 0 } },
    },
  });
  return {
    experiment: 'init-profile',
    engine: {} as never,
    config: {},
    probe: { placements: Object.fromEntries(names.map((n) => [n, stats(scale)])) } as never,
    sensitivity: Object.fromEntries(
      names.map((n) => [
        n,
        {
          depths: [
            { layers: 2, dlogits2: { mean: 1e-3 * scale, std: 0, per_seed: [] } },
            { layers: 4, dlogits2: { mean: 2e-3 * scale, std: 0, per_seed: [] } },
          ],
          slope: 1,
        },
      ]),
    ),
  };
}

describe('the composer’s panels', () => {
  it.each([
    ['no documents', null, null, [], 0],
    ['the reference alone', doc(['post', 'pre']), null, ['post', 'pre'], 3],
    ['the reference and the composed placement', doc(['post', 'pre']), doc([COMPOSED], 2), ['post', 'pre', COMPOSED], 3],
  ] as const)('%s', (_, ref, mine, names, L) => {
    const p = composerPanels(ref, mine);
    for (const k of ['stream', 'w2', 'last', 'sens'] as const) expect(p[k].series.map((s) => s.name)).toEqual(names);
    expect(p.stream.band.length).toBe(L);
    expect(p.w2.ticks.length).toBe(L);
    if (names.length) {
      // depths sorted whatever the document's key order; 1/√L from Pre-LN's shallowest depth
      expect(p.last.ticks).toEqual([2, 4]);
      expect(p.last.guide.map((q) => q.y)).toEqual([1, Math.sqrt(0.5)]);
      expect(p.sens.yDomain[0]).toBeGreaterThan(0);
    }
  });

  it('reads the composed placement’s headline', () => {
    expect(composedHeadline(doc([COMPOSED], 2), COMPOSED)).toEqual({ lastRatio: 0.5, slope: 1 });
    expect(composedHeadline(null, COMPOSED)).toEqual({ lastRatio: null, slope: null });
  });
});

describe('a stored or imported run’s placement spec', () => {
  it.each([
    ['a preset', PLACEMENT_PRESETS[6].spec, []],
    ['a composed spec as text', JSON.stringify(specOf(valuesOf({ base: 'dyt', values: {} }))), []],
    [
      'an exponent of 0',
      { name: 'c', residual_scale: { kind: 'completep', a: 0 } },
      ['placement_spec.residual_scale.a = 0 (the engine takes a number above 0 to 4)'],
    ],
    ['an unknown norm', { norm: 'batchnorm' }, ['placement_spec.norm = "batchnorm" (the engine takes one of layernorm, rmsnorm, dyt, none)']],
    ['a flag of the wrong type', { attention: { norm_input: 1 } }, ['placement_spec.attention.norm_input = 1 (the engine takes true or false)']],
    ['an unknown key', { sandwich: true }, ['placement_spec.sandwich (not a key of a placement spec)']],
    ['a 10⁶-character string', 'x'.repeat(1e6), ['placement_spec (the engine takes at most 4096 characters)']],
    ['a 10⁶-character label', { label: 'x'.repeat(1e6) }, ['placement_spec.label (the engine takes a text of 1 to 40 characters)']],
    ['not an object', [1], ['placement_spec (the engine takes a JSON object)']],
  ] as const)('%s', (_, spec, want) => {
    expect(specProblems(spec)).toEqual(want);
  });

  it('marks a run whose spec the engine would refuse, naming the key, and takes the spec’s placement by name', () => {
    const ok = trainConfig({ base: 'dyt', values: {} }, null);
    expect(outOfRange('grid', ok)).toEqual([]);
    const bad = { ...ok, placement_spec: { ...(ok.placement_spec as object), residual_scale: { kind: 'completep', a: 0 } } };
    expect(outOfRange('grid', bad)).toEqual(['placement_spec.residual_scale.a = 0 (the engine takes a number above 0 to 4)']);
  });
});

describe('“Train it”', () => {
  it('is the quick look for the composed placement beside Post-LN and Pre-LN, with and without warm-up', () => {
    const c = trainConfig({ base: 'b2t', values: {} }, null);
    expect(c.placements).toEqual(['post', 'pre', 'b2t']);
    expect(c.warmups).toEqual([0, 120]);
    expect(c.steps).toBe(200);
    expect((c.placement_spec as Record<string, unknown>).name).toBe('b2t');
    expect(trainName({ base: 'b2t', values: { qk_norm: 'layernorm' } })).toBe(COMPOSED);
    expect(trainName({ base: FULL, values: {} })).toBe(COMPOSED);
  });
});
