// fig4-text.test.ts — Figure 4's lab on the article's own text (data = text, text_lang), table-driven:
// the form's data select and its language (the engine's choices, named in both languages; the
// language only with text; the note that such runs go to the CPU engine), links with valid and
// invalid values and their round trip, the transform of a text grid (its plateau the text's
// unigram entropy, no optimal line), the run entry's headline ("article text (en)"), a stored text
// grid accepted without an optimal loss, and the worker's choice of the CPU engine for it. That the
// page's text grid is the CLI's is tests/wasm/engine.test.ts; that it runs live from a link, the
// end-to-end check "fig4: a small text grid from a link runs live and draws".
import { describe, expect, it } from 'vitest';
import { GRID_FIELDS } from '../../web/src/generated/engine-schema';
import { UI_STRINGS } from '../../web/src/content/ui-strings';
import { TEXT as EN } from '../../web/src/content/en';
import { TEXT as ZH } from '../../web/src/content/zh';
import { LINKS, linkDefaults, initialViews } from '../../web/src/figures/registry';
import * as permalink from '../../web/src/lib/permalink';
import { applies, configOf, parseField, referenceOf, settingsOf, type Config, type Row } from '../../web/src/lib/fields';
import { SlotForm } from '../../web/src/lib/lab.svelte';
import { GRID, choiceLabel, reasonText } from '../../web/src/lib/settings';
import { headline } from '../../web/src/lib/runs/headline';
import { settingsDiff } from '../../web/src/lib/runs/entry';
import { docProblem } from '../../web/src/lib/runs/doc-check';
import { buildLayers, buildPanels } from '../../web/src/figures/fig4/transform';
import { cpuOnlyJob } from '../../web/src/engine/backend-choice';
import { changedNotes, proseNumbers } from '../../web/src/lib/prose-numbers';
import { renderInline } from '../../web/src/lib/inline';
import type { GridResult } from '../../web/src/engine/documents';
import { grid } from './fixtures';
import { Results } from '../../web/src/lib/result-slots.svelte';
import { LiveRuns } from '../../web/src/lib/runs/live-runs.svelte';
import { SLOT_NAMES } from '../../web/src/lib/slots';

const rowOf = (field: string): Row => GRID.rows.find((r) => r.field === field)!;
const gridIsText = (g: GridResult) => g.config.data === 'text';
const G = grid().config as unknown as Config;
const t = (lang: 'en' | 'zh') => (k: string) => UI_STRINGS[lang][k] ?? k;

/** A grid document on the article's text: the fixture's runs, its config with data = text, the
 *  text's unigram entropy as its plateau, no optimal loss (as the engine writes it). */
function textGrid(lang = 'en'): GridResult {
  const g = grid();
  const { optimal_loss: _, ...rest } = g;
  return {
    ...rest,
    config: { ...g.config, data: 'text', text_lang: lang as 'en' },
    plateau_entropy: 3.353,
    uniform_loss: Math.log(256),
    text: [{ lang, bytes: 50645, fnv1a64: '0123456789abcdef', train_bytes: 45581, held_out_bytes: 5064 }],
    runs: g.runs.map((r) => ({ ...r, val_step: [20, 40], val_loss: [4, 3.5] })),
  };
}

describe('the form’s data select (Figure 4)', () => {
  it("offers the engine's choices, each named in both languages; the text's language only with text", () => {
    expect(rowOf('data').control).toBe('select');
    expect(rowOf('text_lang').control).toBe('select');
    for (const lang of ['en', 'zh'] as const)
      for (const field of ['data', 'text_lang'] as const)
        for (const v of GRID_FIELDS[field].choices!) {
          const label = choiceLabel(field, v, t(lang));
          expect(label, `${lang} ${field}=${v}`).not.toBe(`${field}.${v}`);
          expect(label).not.toBe(v);
        }
    expect(applies(GRID, 'text_lang', { data: 'markov' })).toBe(false);
    expect(applies(GRID, 'text_lang', { data: 'text' })).toBe(true);
  });

  it.each<[Record<string, string>, Config | null, Config]>([
    [{ data: 'text' }, { data: 'text' }, { data: 'text', text_lang: 'both', eval_every: GRID_FIELDS.eval_every.default }],
    [
      { data: 'text', text_lang: 'en' },
      { data: 'text', text_lang: 'en' },
      { data: 'text', text_lang: 'en' },
    ],
    [
      { data: 'text', text_lang: 'zh' },
      { data: 'text', text_lang: 'zh' },
      { data: 'text', text_lang: 'zh' },
    ],
    // the language of the text means nothing on the chain: left out of the config and the settings
    [{ text_lang: 'zh' }, {}, { data: 'markov' }],
    [{ data: 'markov' }, {}, { data: 'markov' }],
  ])('typed %j → settings %j, a config with %j', (typed, values, want) => {
    const f = new SlotForm(GRID, () => G);
    for (const [k, v] of Object.entries(typed)) f.choose(rowOf(k), v);
    expect(f.errors).toEqual({});
    expect(f.settings.values).toEqual(values);
    expect(f.config).toMatchObject(want);
    if (want.data === 'markov') expect(f.config).not.toHaveProperty('text_lang');
    // the settings read back from the config the form makes
    expect(settingsOf(GRID, referenceOf(GRID, G), f.config!).values).toEqual(values);
  });

  it('says under the select, when it is text, that the run goes to the CPU engine (in both languages)', () => {
    const ref = referenceOf(GRID, G);
    expect(rowOf('data').hint?.(ref)).toBeNull();
    const hint = rowOf('data').hint?.(configOf(GRID, ref, { base: 'full', values: { data: 'text' } }));
    expect(hint).toEqual({ key: 'dataHint', vars: {} });
    for (const a of [EN, ZH]) expect(a.figures.fig4[hint!.key], a.lang).toMatch(/CPU/);
  });

  // what a select cannot offer (a forged value, or a select left with no option: ''): the form's
  // inline message, and nothing to run. (The robustness corpus's UI cases type into inputs; its
  // URL cases carry these values: tests/robustness/corpus.mjs.)
  it.each<[string, string, Record<string, string>]>([
    ['data', 'txt', {}],
    ['data', '', {}],
    ['text_lang', 'fr', { data: 'text' }],
    ['text_lang', '', { data: 'text' }],
  ])('the select %s given "%s" says so under it and leaves nothing to run', (field, v, before) => {
    const f = new SlotForm(GRID, () => G);
    for (const [k, x] of Object.entries(before)) f.choose(rowOf(k), x);
    f.choose(rowOf(field), v);
    expect(f.errors[field]?.key).toBe('field.err.choice');
    expect(f.invalid).toBe(true);
    expect(f.config).toBeNull();
    f.choose(rowOf(field), GRID_FIELDS[field as 'data'].default as string);
    expect(f.errors).toEqual({});
  });

  it.each([
    ['data', 'txt'],
    ['data', 'Text'],
    ['data', ''],
    ['data', 'markov,text'],
    ['text_lang', 'fr'],
    ['text_lang', 'EN'],
    ['text_lang', ''],
  ])('%s = "%s" is refused, naming the choices', (field, v) => {
    const p = parseField(GRID, rowOf(field), v);
    expect('error' in p && p.error.key).toBe('field.err.choice');
  });
});

describe('links with the data knob', () => {
  const parse = (q: string) => permalink.parseLink(LINKS, q);
  it.each<[string, Config]>([
    ['?fig4.data=text', { data: 'text' }],
    ['?fig4.data=text&fig4.text_lang=en', { data: 'text', text_lang: 'en' }],
    ['?fig4.data=text&fig4.text_lang=zh&fig4.layers=2&fig4.steps=20', { data: 'text', text_lang: 'zh', layers: 2, steps: 20 }],
  ])('%s opens the text grid and writes itself back', (q, values) => {
    const r = parse(q);
    expect(r.issues).toEqual([]);
    expect(r.state.parts.grid).toEqual({ values });
    const view = { lang: 'en', parts: { ...initialViews(), probe: null, grid: { base: 'full', values } } } as permalink.ViewState;
    const again = parse('?' + permalink.serializeView(LINKS, view, linkDefaults()));
    expect(again.issues).toEqual([]);
    expect(again.state.parts.grid).toEqual({ values });
  });
  it.each([
    ['?fig4.data=txt', 'fig4.data', 'markov, text'],
    ['?fig4.data=', 'fig4.data', 'markov, text'],
    ['?fig4.data=text&fig4.text_lang=fr', 'fig4.text_lang', 'en, zh, both'],
  ])('%s is refused on %s, in the reader’s terms', (q, param, choices) => {
    const r = parse(q);
    expect(r.issues.map((i) => [i.param, i.kind])).toEqual([[param, 'invalid']]);
    for (const lang of ['en', 'zh'] as const) expect(reasonText(r.issues[0].reason, t(lang))).toContain(choices);
  });
});

describe('Figure 4’s transform of a text grid', () => {
  it('draws the text’s unigram entropy as the plateau and no optimal line', () => {
    const p = buildPanels(textGrid('en'));
    expect(p.refs).toEqual({ optimal: null, plateau: 3.353, uniform: Math.log(256), text: 'en' });
    expect(p.yDomain.every(Number.isFinite)).toBe(true);
    expect(p.yDomain[0]).toBeLessThanOrEqual(1.5); // the runs' final losses are in view
    expect(p.panels.length).toBe(2);
  });
  it('a chain grid keeps its optimum; a text run over the muted reference gives the text’s lines', () => {
    expect(buildPanels(grid()).refs).toEqual({ optimal: 1, plateau: 5, uniform: 5.5, text: null });
    const layers = buildLayers([
      { key: 'reference', doc: grid(), muted: true, label: 'reference', index: null },
      { key: 'r1', doc: textGrid('zh'), muted: false, label: '#1', index: 1 },
    ]);
    expect(layers.refs).toMatchObject({ optimal: null, text: 'zh', plateau: 3.353 });
  });
  it('a document without data (made before the knob) is the chain', () => {
    const g = grid();
    delete (g.config as Partial<GridResult['config']>).data;
    expect(buildPanels(g).refs?.text).toBeNull();
  });
});

describe('the caption of a drawn text grid', () => {
  it('names what the toy learned, in the language', () => {
    expect(proseNumbers(null, textGrid('en'), 'en')['toy.model']).toBe('the toy model (on the article’s English text)');
    expect(proseNumbers(null, textGrid('both'), 'zh')['toy.model']).toBe('玩具模型（学本文的英文和中文文字）');
    const g = textGrid('zh');
    Object.assign(g.config, { final_norm: 'off' });
    expect(proseNumbers(null, g, 'en')['toy.model']).toBe('the toy model (on the article’s Chinese text, no final norm)');
    expect(proseNumbers(null, g, 'en')['toy.opt']).toBe('—'); // no optimal loss to quote
  });

  // the caption's sentence on the lines follows the drawn document: the chain's optimal loss, or
  // the text's unigram entropy and no optimal line (what buildPanels draws: refs.optimal, refs.plateau)
  const chainEn = 'The dotted line is the optimal loss, ln 4.';
  const chainZh = '点线是最优损失 ln 4。';
  const textEn =
    'The dash-dotted line is the plateau, here the text’s unigram entropy, 3.35 (the loss of a model that knows only how often each byte occurs); real text has no known optimal loss, so there is no dotted line.';
  const textZh = '点划线是平台，这里是这段文字的一元熵 3.35（只知道每个字节出现频率的模型的损失）；真实文本没有已知的最优损失，所以没有点线。';
  const chain = () => ({ ...grid(), optimal_loss: Math.log(4) });
  it.each<[string, () => GridResult | null, 'en' | 'zh', string]>([
    ['the chain', chain, 'en', chainEn],
    ['the chain', chain, 'zh', chainZh],
    ['a chain of 2 successors', () => ({ ...grid(), optimal_loss: Math.log(2) }), 'en', 'The dotted line is the optimal loss, ln 2.'],
    ['the English text', () => textGrid('en'), 'en', textEn],
    ['the English text', () => textGrid('en'), 'zh', textZh],
    ['both texts', () => textGrid('both'), 'en', textEn],
    ['the Chinese text', () => textGrid('zh'), 'zh', textZh],
    ['no document yet', () => null, 'en', '—'],
  ])('%s (%s) → the caption says: %s', (_, doc, lang, want) => {
    const G = doc();
    const numbers = proseNumbers(null, G, lang);
    expect(numbers['toy.lines']).toBe(want);
    if (!G) return;
    // the rendered caption of either language says it, and never the other document's sentence
    const caption = renderInline((lang === 'en' ? EN : ZH).figures.fig4.caption, { bindings: numbers });
    const plain = caption.replace(/<[^>]+>/g, '');
    expect(plain).toContain(want);
    expect(plain).not.toContain(gridIsText(G) ? (lang === 'en' ? 'optimal loss, ln' : '点线是最优损失') : lang === 'en' ? 'unigram entropy' : '一元熵');
    // and it agrees with the drawing
    expect(buildPanels(G).refs?.optimal == null).toBe(gridIsText(G));
  });

  it('a live text run’s sentence is not followed by the reference’s (its lines are not drawn); a changed number still is', () => {
    const ref = proseNumbers(null, chain(), 'en');
    const now = proseNumbers(null, textGrid('en'), 'en');
    const notes = changedNotes(now, ref, (a) => ` (article: ${a})`);
    expect(notes).not.toHaveProperty('toy.lines');
    expect(notes['toy.model']).toBe(' (article: the toy model)');
    expect(changedNotes(ref, ref, (a) => a)).toEqual({});
  });

  // issue 29 (4): while a text run streams over a drawn chain, Figure 4 draws its curves from its
  // first report (the run list's running entry), so the caption states its data from then on
  it.each<['en' | 'zh', string, string, string]>([
    ['en', textEn, chainEn, 'the toy model (on the article’s English text)'],
    ['zh', textZh, chainZh, '玩具模型（学本文的英文文字）'],
  ])('a streaming text run over the chain: the caption binds the streaming document (%s)', (lang, text, chainLines, model) => {
    const results = new Results(new LiveRuns(SLOT_NAMES, null));
    results.grid.use(chain());
    expect(results.proseNumbers(lang)['toy.lines']).toBe(chainLines);
    const doc = textGrid('en');
    const id = results.runs.begin('grid', doc.config as unknown as Record<string, unknown>);
    // started, nothing reported yet: nothing of it is drawn, the caption is the chain's
    expect(results.grid.streamingEntry).toBeNull();
    expect(results.proseNumbers(lang)['toy.lines']).toBe(chainLines);
    // its first report: its curves are drawn (Results.recompute's stream sets `partial`)
    results.runs.progress(id, 0.3, 100, doc);
    results.grid.partial = doc;
    expect(results.grid.drawn).toBe(doc);
    expect(results.grid.streamingEntry?.id).toBe(id);
    const now = results.proseNumbers(lang);
    expect(now['toy.lines']).toBe(text);
    expect(now['toy.model']).toBe(model);
    // the article's numbers stay the reference's
    expect(results.proseNumbers(lang, 'precomputed')['toy.lines']).toBe(chainLines);
    // done: the complete run is the drawn document
    results.runs.finish(id, { status: 'done', doc });
    results.grid.partial = null;
    expect(results.grid.streamingEntry).toBeNull();
    expect(results.proseNumbers(lang)['toy.lines']).toBe(text);
  });
});

describe('a text grid in the run list', () => {
  it('its entry says “article text (en)” before its final losses', () => {
    expect(headline('grid', textGrid('en'), t('en'))).toMatch(/^article text \(en\) · final loss Post-LN /);
    expect(headline('grid', textGrid('zh'), t('zh'))).toMatch(/^本文文字（zh） · 最终损失 /);
    expect(headline('grid', grid(), t('en'))).toMatch(/^final loss /);
  });
  it('its settings away from the reference name the data and the language, not the default eval_every', () => {
    // the precomputed reference was written before the knob: no data, text_lang or eval_every
    const { data: _d, text_lang: _l, eval_every: _e, ...old } = G;
    expect(settingsDiff(textGrid('en').config as unknown as Config, old)).toEqual(['data text', 'text_lang en']);
    expect(settingsDiff({ ...old, data: 'text', text_lang: 'both', eval_every: 5 }, old)).toEqual(['data text', 'eval_every 5']);
    expect(settingsDiff(G, old)).toEqual([]);
  });
  it('is a document Figure 4 can draw without an optimal loss; a chain grid still needs one', () => {
    expect(docProblem('grid', textGrid())).toBeNull();
    const chain = { ...textGrid(), config: grid().config };
    expect(docProblem('grid', chain)).toBe('"optimal_loss" is not a number');
  });
});

describe('the engine a text grid runs on (engine/backend-choice.ts cpuOnlyJob)', () => {
  it.each<[{ type: string; config?: unknown }, 'experiment' | 'text' | null]>([
    [{ type: 'grid', config: { data: 'text', text_lang: 'en' } }, 'text'],
    [{ type: 'grid', config: { data: 'markov' } }, null],
    [{ type: 'grid', config: {} }, null],
    [{ type: 'grid', config: null }, null],
    [{ type: 'probe', config: { data: 'text' } }, null],
    [{ type: 'experiment', config: {} }, 'experiment'],
  ])('%j → %s', (job, want) => expect(cpuOnlyJob(job)).toBe(want));
});
