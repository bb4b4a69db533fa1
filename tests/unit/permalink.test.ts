// Permalinks: the URL ⇄ view-state machinery (web/src/lib/permalink.ts) with the parameters the
// figures declare (web/src/figures/figN/index.ts, listed in figures/registry.ts), table-driven.
// The parameter names and the serialised links are the page's public interface: they never change.
// A run group's state is a slot's settings (lib/fields.ts Settings: a base, the values set away
// from it); the links of main before the field table are the permalink table's
// (permalink-table.test.ts).
import { describe, expect, it } from 'vitest';
import * as permalink from '../../web/src/lib/permalink';
import { displayValue, embedSnippet, type ViewState } from '../../web/src/lib/permalink';
import { FIGURES, LINKS, initialViews, linkDefaults } from '../../web/src/figures/registry';
import { configOf, initialSettings, referenceOf, settingsOf, type Config, type Settings } from '../../web/src/lib/fields';
import { GRID, PROBE } from '../../web/src/lib/settings';
import { grid, probe } from './fixtures';

/** settings of the probe or grid: a base (the reference when absent) and values */
const ps = (values: Record<string, unknown> = {}, base = 'full'): Settings => ({ base, values });
/** a count of seeds as the engine's list 0 … n − 1 */
const seeds = (n: number) => Array.from({ length: n }, (_, i) => i);

const DEFAULTS = linkDefaults();
const parseLink = (q: string) => permalink.parseLink(LINKS, q);
const serializeView = (v: ViewState, d = DEFAULTS, o?: permalink.SerializeOptions) => permalink.serializeView(LINKS, v, d, o);
const foreignParams = (q: string) => permalink.foreignParams(LINKS, q);

type Over = Partial<Pick<ViewState, 'lang' | 'theme' | 'embed'>> & Record<string, unknown>;
/** The default view with `over`'s page keys and group states (fig1, fig2, fig3, probe, grid). */
function view({ lang = 'en', theme, embed, ...parts }: Over = {}): ViewState {
  return {
    lang,
    theme,
    embed,
    parts: { ...initialViews(), probe: null, grid: null, ...parts } as ViewState['parts'],
  };
}

/** A LinkState from the page keys and the group parts of `want`. */
function state({ lang, theme, embed, ...parts }: Record<string, unknown>): permalink.LinkState {
  return { ...(lang ? { lang } : {}), ...(theme ? { theme } : {}), ...(embed ? { embed } : {}), parts } as permalink.LinkState;
}

describe('parseLink: valid parameters', () => {
  it.each([
    ['', {}],
    ['?lang=zh', { lang: 'zh' }],
    ['lang=en&theme=dark', { lang: 'en', theme: 'dark' }],
    ['?embed=fig3', { embed: 'fig3' }],
    ['?fig1.step=4&fig1.ln=open', { fig1: { step: 4, finalLn: true } }],
    ['?fig1.ln=closed', { fig1: { finalLn: false } }],
    ['?fig2.layer=3', { fig2: { layer: 3 } }],
    ['?fig2.layer=final', { fig2: { layer: 'final' } }],
    ['?fig3.stat=batch', { fig3: { stat: 'W2_per_batch' } }],
    ['?fig3.stat=paper', { fig3: { stat: 'W2_per_layer' } }],
    ['?fig3.seeds=2&fig3.batches=4&fig3.depths=10,6,6', { probe: { values: { seeds: [0, 1], batches: 4, depths: [6, 10] } } }],
    ['?fig3.model=small', { probe: { base: 'small' } }],
    ['?fig4.lrs=3e-3,1e-3&fig4.warmups=0&fig4.seeds=1&fig4.steps=20', { grid: { values: { lrs: [0.001, 0.003], warmups: [0], seeds: [0], steps: 20 } } }],
    ['?fig4.lrs=0.001%2C0.003', { grid: { values: { lrs: [0.001, 0.003] } } }],
    ['?fig4.steps=1e2', { grid: { values: { steps: 100 } } }],
    ['?fig4.lrs=5', { grid: { values: { lrs: [5] } } }],
    [
      '?fig4.placements=admin,post&fig4.optimizer=sgd&fig4.momentum=0.5',
      { grid: { values: { placements: ['post', 'admin'], optimizer: 'sgd', momentum: 0.5 } } },
    ],
    ['?fig10.depths=8,4&fig10.seeds=1', { stepSize: { values: { depths: [4, 8], seeds: [0] } } }],
    ['?fig8.setting=full&fig8.optimizers=sgd,adam', { warmupLength: { base: 'full', values: { optimizers: ['adam', 'sgd'] } } }],
    ['?fig5.sign.d=64', { outputSensitivitySign: { values: { d: 64 } } }],
    ['?utm_source=x&fbclid=y', {}],
  ])('%s', (q, want) => {
    const r = parseLink(q);
    expect(r.issues).toEqual([]);
    expect(r.state).toEqual(state(want));
  });
});

describe('parseLink: invalid parameters fall back one by one', () => {
  it.each([
    ['?lang=fr', 'lang', 'url.lang', {}],
    ['?lang=<script>alert(1)</script>', 'lang', 'url.lang', {}],
    ['?theme=javascript:alert(1)', 'theme', 'url.theme', {}],
    ['?embed=fig99', 'embed', 'url.embed', {}],
    ['?fig1.step=0', 'fig1.step', 'url.fig1.step', {}],
    ['?fig1.step=7', 'fig1.step', 'url.fig1.step', {}],
    ['?fig1.step=NaN', 'fig1.step', 'url.fig1.step', {}],
    ['?fig1.step=2.5', 'fig1.step', 'url.fig1.step', {}],
    ['?fig1.ln=1', 'fig1.ln', 'url.fig1.ln', {}],
    ['?fig2.layer=-1', 'fig2.layer', 'url.fig2.layer', {}],
    ['?fig2.layer=Infinity', 'fig2.layer', 'url.fig2.layer', {}],
    ['?fig3.stat=mean', 'fig3.stat', 'url.fig3.stat', {}],
    ['?fig3.model=huge', 'fig3.model', 'field:probe:*', {}],
    ['?fig3.seeds=99', 'fig3.seeds', 'field:probe:seeds', {}],
    ['?fig3.batches=0', 'fig3.batches', 'field:probe:batches', {}],
    ['?fig3.depths=', 'fig3.depths', 'field:probe:depths', {}],
    ['?fig3.depths=6,1000', 'fig3.depths', 'field:probe:depths', {}],
    ['?fig3.depths=' + Array.from({ length: 17 }, (_, i) => i + 1).join(','), 'fig3.depths', 'field:probe:depths', {}],
    ['?fig4.lrs=0', 'fig4.lrs', 'field:grid:lrs', {}],
    ['?fig4.lrs=-1e-3', 'fig4.lrs', 'field:grid:lrs', {}],
    ['?fig4.lrs=1e999', 'fig4.lrs', 'field:grid:lrs', {}],
    ['?fig4.lrs=0x10', 'fig4.lrs', 'field:grid:lrs', {}],
    ['?fig4.lrs=1e-3,2e-3,3e-3', 'fig4.lrs', 'field:grid:lrs', {}],
    ['?fig4.warmups=1.5', 'fig4.warmups', 'field:grid:warmups', {}],
    ['?fig4.seeds=1000', 'fig4.seeds', 'field:grid:seeds', {}],
    ['?fig4.steps=1e12', 'fig4.steps', 'field:grid:steps', {}],
    ['?fig4.steps=abc&fig4.seeds=1', 'fig4.steps', 'field:grid:steps', { grid: { values: { seeds: [0] } } }],
    ['?fig4.placements=post,sideways', 'fig4.placements', 'field:grid:placements', {}],
    ['?fig4.optimizer=lion', 'fig4.optimizer', 'field:grid:optimizer', {}],
    ['?fig10.depths=0', 'fig10.depths', 'field:stepSize:depths', {}],
    ['?fig8.setting=medium', 'fig8.setting', 'field:warmupLength:*', {}],
    ['?fig1.step=x&lang=zh', 'fig1.step', 'url.fig1.step', { lang: 'zh' }],
    ['?fig4.steps=' + '9'.repeat(300), 'fig4.steps', 'url.tooLong', {}],
  ])('%s → issue on %s', (q, param, reason, want) => {
    const r = parseLink(q);
    expect(r.issues.map((i) => [i.param, i.kind, i.reason])).toEqual([[param, 'invalid', reason]]);
    expect(r.state).toEqual(state(want));
  });

  it('a repeated parameter is reported and not used', () => {
    const r = parseLink('?lang=zh&lang=en');
    expect(r.issues).toEqual([{ param: 'lang', value: 'zh | en', kind: 'duplicate', reason: 'url.duplicate' }]);
    expect(r.state).toEqual({ parts: {} });
  });
  it('an issue names the group of its parameter: a slot’s run settings, a figure’s view, none for the page’s own', () => {
    const r = parseLink('?fig4.steps=20000&fig4.steps=3&fig3.seeds=99&fig1.step=9&lang=fr&fig5.x=1');
    expect(r.issues.map((i) => [i.param, i.kind, i.group])).toEqual([
      ['fig4.steps', 'duplicate', 'grid'],
      ['fig3.seeds', 'invalid', 'probe'],
      ['fig1.step', 'invalid', 'fig1'],
      ['lang', 'invalid', undefined],
      ['fig5.x', 'unknown', undefined],
    ]);
  });
  it('an unknown parameter in our namespace is reported; others are left alone', () => {
    const r = parseLink('?fig5.x=1&fig2.zoom=3&utm_medium=mail');
    expect(r.issues.map((i) => [i.param, i.kind])).toEqual([
      ['fig5.x', 'unknown'],
      ['fig2.zoom', 'unknown'],
    ]);
  });
  it('never throws on malformed escapes', () => {
    expect(() => parseLink('?lang=%E0%A4%A&fig1.step=%')).not.toThrow();
    expect(parseLink('?lang=%E0%A4%A').issues[0].param).toBe('lang');
  });
});

describe('serializeView', () => {
  it.each<[Over, string]>([
    [{}, 'lang=en'],
    [{ lang: 'zh', theme: 'dark' }, 'lang=zh'],
    [{ fig1: { step: 3, finalLn: true } }, 'lang=en&fig1.step=3&fig1.ln=open'],
    [{ fig2: { layer: 6 } }, 'lang=en'],
    [{ fig2: { layer: 2 } }, 'lang=en&fig2.layer=2'],
    [{ fig2: { layer: 'final' } }, 'lang=en&fig2.layer=final'],
    [{ fig3: { stat: 'W2_per_batch' } }, 'lang=en&fig3.stat=batch'],
    [{ probe: ps() }, 'lang=en'],
    [{ probe: ps({}, 'small') }, 'lang=en&fig3.model=small'],
    [{ probe: ps({ seeds: seeds(3) }, 'small') }, 'lang=en&fig3.model=small&fig3.seeds=3'],
    [{ probe: ps({ depths: [6, 8] }) }, 'lang=en&fig3.depths=6,8'],
    [{ probe: ps({ d: 128, seq: 64 }) }, 'lang=en&fig3.d=128&fig3.seq=64'],
    [{ probe: ps({ layers: 3 }, 'small') }, 'lang=en&fig3.model=small&fig3.layers=3'],
    [{ grid: ps() }, 'lang=en'],
    [{ grid: ps({ lrs: [0.001], seeds: [0], steps: 20 }) }, 'lang=en&fig4.lrs=0.001&fig4.seeds=1&fig4.steps=20'],
    [{ grid: ps({ lrs: [1e-5, 5], warmups: [0] }) }, 'lang=en&fig4.lrs=0.00001,5&fig4.warmups=0'],
    [{ grid: ps({ optimizer: 'sgd', momentum: 0.5 }) }, 'lang=en&fig4.optimizer=sgd&fig4.momentum=0.5'],
    [{ warmupLength: ps({}, 'small') }, 'lang=en'],
    [{ warmupLength: ps({ seeds: [0, 1] }) }, 'lang=en&fig8.setting=full&fig8.seeds=2'],
    [{ tiedOutput: ps({ depths: [4, 8] }, 'small') }, 'lang=en&fig6.setting=small&fig6.depths=4,8'],
  ])('%j → %s', (over, want) => expect(serializeView(view(over))).toBe(want));

  it('embed options: theme and only one figure; Figure 2 carries the probe settings', () => {
    const v = view({ theme: 'dark', embed: 'fig2', fig1: { step: 2, finalLn: false }, fig2: { layer: 3 }, probe: ps({ seeds: seeds(2) }) });
    expect(serializeView(v, DEFAULTS, { only: 'fig2', theme: true, embed: true })).toBe('embed=fig2&lang=en&theme=dark&fig2.layer=3&fig3.seeds=2');
    expect(serializeView(v, DEFAULTS, { only: 'fig1' })).toBe('lang=en&fig1.step=2');
    // Figure E carries both its slots' settings (the sign step's as fig5.sign.*)
    const e = view({ embed: 'fig5', outputSensitivity: ps({ seeds: [0] }), outputSensitivitySign: ps({ d: 64 }) });
    expect(serializeView(e, DEFAULTS, { only: 'fig5', embed: true })).toBe('embed=fig5&lang=en&fig5.seeds=1&fig5.sign.d=64');
  });
});

describe('round trip: parse(serialize(view)) rebuilds the view', () => {
  const views: Over[] = [
    {},
    { lang: 'zh', fig1: { step: 6, finalLn: true }, fig2: { layer: 'final' }, fig3: { stat: 'W2_per_batch' } },
    { fig5: { perturbation: 'sign' } },
    { probe: ps({ seeds: seeds(1), batches: 3, depths: [2, 4, 48] }, 'small') },
    { probe: ps({ batches: 1, depths: [1] }) },
    { probe: ps({ layers: 4, d: 64, d_ff: 256, batch: 2, seq: 16 }) },
    { grid: ps({ lrs: [1e-5, 10], warmups: [0, 1, 1000], seeds: seeds(4), steps: 10 }) },
    { grid: ps({ placements: ['pre', 'deepnorm', 'admin'] }) },
    { grid: ps({ lrs: [0.003], warmups: [300], seeds: [0], steps: 1000 }) },
    { grid: ps({ layers: 4, d: 64, batch: 2 }) },
    { grid: ps({ lrs: [0.05], warmups: [0, 50], steps: 100, optimizer: 'sgd', momentum: 0.8 }) },
    { grid: ps({ lrs: [0.001], warmups: [0], steps: 100, optimizer: 'radam', beta1: 0.8, beta2: 0.99 }) },
    { grid: ps({ final_norm: 'off', norm_type: 'rmsnorm' }) },
    { grid: ps({ placements: ['pre'], output: 'untied', input_scale: 'none' }) },
    { adamFirstStep: ps({ placements: ['pre'], layers: 4, steps: 30 }, 'small') },
    { warmupLength: ps({ optimizers: ['adam', 'sgd'], lr_factors: [0.5, 2], warmups: [0, 50] }) },
    { plateauShare: ps({ warmups: [0, 200], steps: 300 }), depthFactors: ps({ batches: 3, seeds: seeds(2) }) },
  ];
  it.each(views)('%j', (over) => {
    const v = view(over);
    const { state, issues } = parseLink(serializeView(v));
    expect(issues).toEqual([]);
    expect(state.lang).toBe(v.lang);
    for (const f of FIGURES) expect({ ...f.view.initial, ...state.parts[f.id] }).toEqual(v.parts[f.id]);
    for (const g of LINKS.groups())
      if (v.parts[g.key] && !FIGURES.some((f) => f.id === g.key)) {
        const got = state.parts[g.key] as Partial<Settings> | undefined;
        const d = DEFAULTS[g.key] as Settings;
        expect({ base: got?.base ?? d.base, values: got?.values ?? {} }, g.key).toEqual(v.parts[g.key]);
      }
  });
});

describe('settings of result documents (lib/fields.ts settingsOf)', () => {
  const P = probe().config as unknown as Config;
  const G = grid().config as unknown as Config;
  const refP = referenceOf(PROBE, P);
  it('probe: config → settings; the small model is recognised', () => {
    expect(settingsOf(PROBE, refP, P)).toEqual(ps());
    const small = configOf(PROBE, refP, ps({}, 'small'));
    expect(settingsOf(PROBE, refP, small)).toEqual(ps({}, 'small'));
    expect(settingsOf(PROBE, refP, { ...small, layers: 5 })).toEqual(ps({ layers: 5 }, 'small'));
  });
  it("probe: model sizes away from the reference are the settings' own", () => {
    const article = referenceOf(PROBE, null);
    expect(settingsOf(PROBE, article, { ...article, d: 128, batch: 2 })).toEqual(ps({ d: 128, batch: 2 }));
    expect(settingsOf(PROBE, { ...article, d: 128 }, { ...article, d: 128, batch: 2 })).toEqual(ps({ batch: 2 }));
  });
  it('probe: depth_batches follows the batches (the config of settings)', () => {
    expect(configOf(PROBE, refP, ps({ batches: 7 })).depth_batches).toBe(4);
    expect(configOf(PROBE, refP, ps({}, 'small')).depth_batches).toBe(1);
  });
  it('grid: config → settings (seeds a list, shown as a count)', () => {
    const ref = referenceOf(GRID, G);
    expect(settingsOf(GRID, ref, G)).toEqual(ps());
    expect(settingsOf(GRID, ref, { ...G, layers: 4 })).toEqual(ps({ layers: 4 }));
    // an SGD run carries no beta1; Adam's settings of another optimizer's config say nothing
    expect(settingsOf(GRID, ref, { ...G, optimizer: 'sgd', momentum: 0.5, beta1: undefined })).toEqual(ps({ optimizer: 'sgd', momentum: 0.5 }));
  });
  it('a link with only the small model gets the small setting; fields override', () => {
    expect(configOf(PROBE, refP, ps({}, 'small'))).toMatchObject({ seeds: [0, 1], batches: 2, depths: [2, 4], d: 64 });
    expect(configOf(PROBE, refP, ps({ seeds: [0] }))).toMatchObject({ ...P, seeds: [0] });
    expect(initialSettings(PROBE)).toEqual(ps());
  });
});

describe('links and the embed snippet', () => {
  it('pageLink keeps foreign parameters and the hash', () => {
    const v = view({ fig1: { step: 2, finalLn: false } });
    expect(permalink.pageLink(LINKS, 'https://x.org/ln/?old=1#top', v, DEFAULTS, 'fig1', [['utm_source', 'a b']])).toBe(
      'https://x.org/ln/?lang=en&fig1.step=2&utm_source=a%20b#fig1',
    );
    expect(foreignParams('?lang=zh&utm_source=a&fig9=1&x=2')).toEqual([
      ['utm_source', 'a'],
      ['x', '2'],
    ]);
  });
  it('embedLink names the figure and the theme and only that figure’s state', () => {
    const v = view({ lang: 'zh', fig1: { step: 3, finalLn: false }, fig2: { layer: 2 } });
    expect(permalink.embedLink(LINKS, 'https://x.org/ln/index.html?a=1', 'fig1', v, 'dark', DEFAULTS)).toBe(
      'https://x.org/ln/index.html?embed=fig1&lang=zh&theme=dark&fig1.step=3',
    );
  });
  it('embedSnippet escapes attribute values and rounds the height', () => {
    const s = embedSnippet('https://x.org/?a=1&b="2"', 'Fig <1>', 512.4, 'https://x.org/embed.js');
    expect(s).toContain('src="https://x.org/?a=1&amp;b=&quot;2&quot;"');
    expect(s).toContain('title="Fig &lt;1&gt;"');
    expect(s).toContain('height:512px');
    expect(s).toContain('<script async src="https://x.org/embed.js"></script>');
    expect(embedSnippet('u', 't', NaN, 's')).toContain('height:480px');
  });
  it.each([
    ['plain', 'plain'],
    ['a\u0000b\nc', 'a\ufffdb\ufffdc'],
    ['x'.repeat(50), 'x'.repeat(40) + '…'],
    ['<img src=x onerror=alert(1)>', '<img src=x onerror=alert(1)>'],
  ])('displayValue(%j)', (v, want) => expect(displayValue(v)).toBe(want));
});
