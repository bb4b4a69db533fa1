// Permalinks: the URL ⇄ view-state machinery (web/src/lib/permalink.ts) with the parameters the
// figures declare (web/src/figures/figN/index.ts, listed in figures/registry.ts), table-driven.
// The parameter names and the serialised links are the page's public interface: they never change.
import { describe, expect, it } from 'vitest';
import * as permalink from '../../web/src/lib/permalink';
import { displayValue, embedSnippet, type ViewState } from '../../web/src/lib/permalink';
import { FIGURES, LINKS, initialViews, linkDefaults } from '../../web/src/figures/registry';
import { PROBE_DEFAULTS, probeSettingsOf, resolveProbe } from '../../web/src/lib/probe-settings';
import { GRID_DEFAULTS, gridSettingsOf, resolveGrid } from '../../web/src/lib/grid-settings';
import { grid, probe } from './fixtures';

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
    ['?fig3.seeds=2&fig3.batches=4&fig3.depths=10,6,6', { probe: { seeds: 2, batches: 4, depths: [6, 10] } }],
    ['?fig3.model=small', { probe: { small: true } }],
    ['?fig4.lrs=3e-3,1e-3&fig4.warmups=0&fig4.seeds=1&fig4.steps=20', { grid: { lrs: [0.001, 0.003], warmups: [0], seeds: 1, steps: 20 } }],
    ['?fig4.lrs=0.001%2C0.003', { grid: { lrs: [0.001, 0.003] } }],
    ['?fig4.steps=1e2', { grid: { steps: 100 } }],
    ['?fig4.lrs=5', { grid: { lrs: [5] } }],
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
    ['?fig3.model=huge', 'fig3.model', 'url.fig3.model', {}],
    ['?fig3.seeds=99', 'fig3.seeds', 'fig3:err.seeds', {}],
    ['?fig3.batches=0', 'fig3.batches', 'fig3:err.batches', {}],
    ['?fig3.depths=', 'fig3.depths', 'url.fig3.depths', {}],
    ['?fig3.depths=6,1000', 'fig3.depths', 'url.fig3.depths', {}],
    ['?fig3.depths=' + Array.from({ length: 17 }, (_, i) => i + 1).join(','), 'fig3.depths', 'url.fig3.depths', {}],
    ['?fig4.lrs=0', 'fig4.lrs', 'fig4:err.lrs', {}],
    ['?fig4.lrs=-1e-3', 'fig4.lrs', 'fig4:err.lrs', {}],
    ['?fig4.lrs=1e999', 'fig4.lrs', 'fig4:err.lrs', {}],
    ['?fig4.lrs=0x10', 'fig4.lrs', 'fig4:err.lrs', {}],
    ['?fig4.lrs=1e-3,2e-3,3e-3', 'fig4.lrs', 'fig4:err.lrs', {}],
    ['?fig4.warmups=1.5', 'fig4.warmups', 'fig4:err.warmups', {}],
    ['?fig4.seeds=1000', 'fig4.seeds', 'fig4:err.seeds', {}],
    ['?fig4.steps=1e12', 'fig4.steps', 'fig4:err.steps', {}],
    ['?fig4.steps=abc&fig4.seeds=1', 'fig4.steps', 'fig4:err.steps', { grid: { seeds: 1 } }],
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
    [{ probe: PROBE_DEFAULTS }, 'lang=en'],
    [{ probe: { seeds: 2, batches: 2, depths: [2, 4], small: true } }, 'lang=en&fig3.model=small'],
    [{ probe: { seeds: 3, batches: 2, depths: [2, 4], small: true } }, 'lang=en&fig3.model=small&fig3.seeds=3'],
    [{ probe: { seeds: 5, batches: 20, depths: [6, 8], small: false } }, 'lang=en&fig3.depths=6,8'],
    [{ probe: { ...PROBE_DEFAULTS, model: { d: 128, seq: 64 } } }, 'lang=en&fig3.d=128&fig3.seq=64'],
    [{ probe: { seeds: 2, batches: 2, depths: [2, 4], small: true, model: { layers: 3 } } }, 'lang=en&fig3.model=small&fig3.layers=3'],
    [{ grid: GRID_DEFAULTS }, 'lang=en'],
    [
      { grid: { placements: ['post', 'pre'], lrs: [0.001], warmups: [0, 300], seeds: 1, steps: 20, optimizer: 'adam' as const, hyper: {} } },
      'lang=en&fig4.lrs=0.001&fig4.seeds=1&fig4.steps=20',
    ],
    [
      { grid: { placements: ['post', 'pre'], lrs: [1e-5, 5], warmups: [0], seeds: 2, steps: 500, optimizer: 'adam' as const, hyper: {} } },
      'lang=en&fig4.lrs=0.00001,5&fig4.warmups=0',
    ],
    [{ grid: { ...GRID_DEFAULTS, optimizer: 'sgd' as const, hyper: { momentum: 0.5 } } }, 'lang=en&fig4.optimizer=sgd&fig4.momentum=0.5'],
  ])('%j → %s', (over, want) => expect(serializeView(view(over))).toBe(want));

  it('embed options: theme and only one figure; Figure 2 carries the probe settings', () => {
    const v = view({ theme: 'dark', embed: 'fig2', fig1: { step: 2, finalLn: false }, fig2: { layer: 3 }, probe: { ...PROBE_DEFAULTS, seeds: 2 } });
    expect(serializeView(v, DEFAULTS, { only: 'fig2', theme: true, embed: true })).toBe('embed=fig2&lang=en&theme=dark&fig2.layer=3&fig3.seeds=2');
    expect(serializeView(v, DEFAULTS, { only: 'fig1' })).toBe('lang=en&fig1.step=2');
  });
});

describe('round trip: parse(serialize(view)) rebuilds the view', () => {
  const views: Over[] = [
    {},
    { lang: 'zh', fig1: { step: 6, finalLn: true }, fig2: { layer: 'final' }, fig3: { stat: 'W2_per_batch' } },
    { fig5: { perturbation: 'sign' } },
    { probe: { seeds: 1, batches: 3, depths: [2, 4, 48], small: true } },
    { probe: { seeds: 5, batches: 1, depths: [1], small: false } },
    { probe: { seeds: 5, batches: 20, depths: [6, 8, 10, 12, 14], small: false, model: { layers: 4, d: 64, d_ff: 256, batch: 2, seq: 16 } } },
    {
      grid: {
        placements: ['post', 'pre'],
        lrs: [1e-5, 10],
        warmups: [0, 1, 1000],
        seeds: 4,
        steps: 10,
        optimizer: 'adam' as const,
        hyper: {},
        model: {},
        arch: {},
      },
    },
    { grid: { ...GRID_DEFAULTS, placements: ['pre', 'deepnorm', 'admin'] } },
    { grid: { placements: ['post', 'pre'], lrs: [0.003], warmups: [300], seeds: 1, steps: 1000, optimizer: 'adam' as const, hyper: {}, model: {}, arch: {} } },
    { grid: { ...GRID_DEFAULTS, model: { layers: 4, d: 64, batch: 2 } } },
    {
      grid: {
        placements: ['post', 'pre'],
        lrs: [0.05],
        warmups: [0, 50],
        seeds: 2,
        steps: 100,
        optimizer: 'sgd' as const,
        hyper: { momentum: 0.8 },
        model: {},
        arch: {},
      },
    },
    {
      grid: {
        placements: ['post', 'pre'],
        lrs: [0.001],
        warmups: [0],
        seeds: 2,
        steps: 100,
        optimizer: 'radam' as const,
        hyper: { beta1: 0.8, beta2: 0.99 },
        model: {},
        arch: {},
      },
    },
    { grid: { ...GRID_DEFAULTS, arch: { final_norm: 'off', norm_type: 'rmsnorm' } } },
    { grid: { ...GRID_DEFAULTS, placements: ['pre' as const], arch: { output: 'untied', input_scale: 'none' } } },
  ];
  it.each(views)('%j', (over) => {
    const v = view(over);
    const { state, issues } = parseLink(serializeView(v));
    expect(issues).toEqual([]);
    expect(state.lang).toBe(v.lang);
    for (const f of FIGURES) expect({ ...f.view.initial, ...state.parts[f.id] }).toEqual(v.parts[f.id]);
    if (v.parts.probe) expect(resolveProbe(state.parts.probe)).toEqual(v.parts.probe);
    if (v.parts.grid) expect(resolveGrid(state.parts.grid)).toEqual(v.parts.grid);
  });
});

describe('settings of result documents', () => {
  it('probe: config → settings; the small model is recognised', () => {
    expect(probeSettingsOf(probe().config, probe().config)).toEqual({ seeds: 2, batches: 2, depths: [6, 8, 10], small: false });
    const p = probe();
    Object.assign(p.config, { layers: 6, d: 64, d_ff: 128, vocab: 100, seq: 16, batch: 4 });
    expect(probeSettingsOf(p.config)?.small).toBe(true);
    expect(probeSettingsOf(null)).toBeNull();
  });
  it("probe: model sizes away from the reference are the settings' own; the small model exactly is small", () => {
    const p = probe();
    Object.assign(p.config, { layers: 6, d: 128, d_ff: 1024, vocab: 1000, seq: 32, batch: 2 }); // the article's but d and B
    expect(probeSettingsOf(p.config)?.model).toEqual({ d: 128, batch: 2 });
    expect(probeSettingsOf(p.config, { layers: 6, d: 128, d_ff: 1024, vocab: 1000, seq: 32, batch: 8 })?.model).toEqual({ batch: 2 });
    Object.assign(p.config, { d: 64, d_ff: 128, vocab: 100, seq: 16, batch: 4, layers: 6 });
    expect(probeSettingsOf(p.config)).toMatchObject({ small: true });
    expect(probeSettingsOf(p.config)?.model).toBeUndefined();
  });
  it('grid: config → settings (seeds counted)', () => {
    expect(gridSettingsOf(grid().config, grid().config)).toEqual({
      placements: ['post', 'pre'],
      lrs: [0.001, 0.003],
      warmups: [0, 100],
      seeds: 2,
      steps: 200,
      optimizer: 'adam',
      hyper: {},
      model: {},
      warmupShape: 'linear',
      arch: {},
    });
    expect(gridSettingsOf({ ...grid().config, layers: 4 }, grid().config)?.model).toEqual({ layers: 4 });
    expect(gridSettingsOf(null)).toBeNull();
  });
  it('resolveProbe: a link with only the small model gets the small preset; fields override', () => {
    expect(resolveProbe({ small: true })).toEqual({ seeds: 2, batches: 2, depths: [2, 4], small: true });
    expect(resolveProbe({ seeds: 1 })).toEqual({ ...PROBE_DEFAULTS, seeds: 1 });
    expect(resolveProbe(undefined)).toEqual(PROBE_DEFAULTS);
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
