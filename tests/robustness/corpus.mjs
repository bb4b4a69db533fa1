// tests/robustness/corpus.mjs — the bad-input corpus: URL parameters, UI values and engine API
// arguments that are NaN, ±Infinity, 0, negative, huge (memory-exhausting), non-numeric, too many
// seeds, unknown enum values, markup/script injection in anything that is shown, and malformed
// input. Data only; run by engine.test.ts (Vitest, real wasm) and run.mjs (Chromium).
//
// URL case:    { id, category, query, banner: [params the banner must name], expect?: overrides }
//              Everything not overridden must be at its default (fallback for that parameter only).
// UI case:     { id, category, fig, field, value, error }   error: which message it is (the figure's key of the
//              page before the field tables; the form now says the field's own, lib/fields.ts fieldError)
// Engine case: { id, category, call, arg, config? }          must throw an Error 'lnx: …' without markup,
//              quickly, without growing the heap; `call` says which entry point gets the bad value.

const INJECT = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '<svg onload=alert(1)>', 'javascript:alert(1)', '{{probe.seeds}}', '${7*7}'];

// ---- URL ---------------------------------------------------------------------------------------
/** @type {{id:string, category:string, query:string, banner:string[], expect?:Record<string, unknown>}[]} */
export const URL_CASES = [
  // NaN
  { category: 'NaN', query: 'fig1.step=NaN', banner: ['fig1.step'] },
  { category: 'NaN', query: 'fig2.layer=NaN', banner: ['fig2.layer'] },
  { category: 'NaN', query: 'fig3.seeds=NaN', banner: ['fig3.seeds'] },
  { category: 'NaN', query: 'fig4.lrs=NaN', banner: ['fig4.lrs'] },
  { category: 'NaN', query: 'fig4.steps=NaN', banner: ['fig4.steps'] },
  // ±Infinity
  { category: '±Infinity', query: 'fig4.lrs=Infinity', banner: ['fig4.lrs'] },
  { category: '±Infinity', query: 'fig4.steps=-Infinity', banner: ['fig4.steps'] },
  { category: '±Infinity', query: 'fig3.batches=Infinity', banner: ['fig3.batches'] },
  { category: '±Infinity', query: 'fig2.layer=%2BInfinity', banner: ['fig2.layer'] },
  { category: '±Infinity', query: 'fig4.lrs=1e999', banner: ['fig4.lrs'] },
  // zero
  { category: 'zero', query: 'fig1.step=0', banner: ['fig1.step'] },
  { category: 'zero', query: 'fig2.layer=0', banner: ['fig2.layer'] },
  { category: 'zero', query: 'fig3.seeds=0', banner: ['fig3.seeds'] },
  { category: 'zero', query: 'fig4.lrs=0', banner: ['fig4.lrs'] },
  { category: 'zero', query: 'fig4.seeds=0', banner: ['fig4.seeds'] },
  { category: 'zero', query: 'fig4.steps=0', banner: ['fig4.steps'] },
  // negative
  { category: 'negative', query: 'fig1.step=-1', banner: ['fig1.step'] },
  { category: 'negative', query: 'fig3.depths=-6', banner: ['fig3.depths'] },
  { category: 'negative', query: 'fig4.lrs=-0.001', banner: ['fig4.lrs'] },
  { category: 'negative', query: 'fig4.warmups=-300', banner: ['fig4.warmups'] },
  { category: 'negative', query: 'fig4.seeds=-2', banner: ['fig4.seeds'] },
  // huge (would exhaust memory or time if taken)
  { category: 'huge', query: 'fig4.steps=1e9', banner: ['fig4.steps'] },
  { category: 'huge', query: 'fig3.batches=99999999', banner: ['fig3.batches'] },
  { category: 'huge', query: 'fig3.depths=6,1000000', banner: ['fig3.depths'] },
  { category: 'huge', query: 'fig4.warmups=1e300', banner: ['fig4.warmups'] },
  { category: 'huge', query: `fig4.lrs=${Array(2000).fill('0.001').join(',')}`, banner: ['fig4.lrs'] },
  { category: 'huge', query: `fig3.depths=${Array.from({ length: 40 }, (_, i) => i + 1).join(',')}`, banner: ['fig3.depths'] },
  // non-numeric
  { category: 'non-numeric', query: 'fig1.step=abc', banner: ['fig1.step'] },
  { category: 'non-numeric', query: 'fig4.steps=ten', banner: ['fig4.steps'] },
  { category: 'non-numeric', query: 'fig4.lrs=0x10', banner: ['fig4.lrs'] },
  { category: 'non-numeric', query: 'fig3.seeds=1_0', banner: ['fig3.seeds'] },
  { category: 'non-numeric', query: 'fig4.seeds=2.5', banner: ['fig4.seeds'] },
  { category: 'non-numeric', query: 'fig4.lrs=', banner: ['fig4.lrs'] },
  // too many seeds
  { category: 'too many seeds', query: 'fig4.seeds=5', banner: ['fig4.seeds'] },
  { category: 'too many seeds', query: 'fig4.seeds=1000', banner: ['fig4.seeds'] },
  { category: 'too many seeds', query: 'fig3.seeds=6', banner: ['fig3.seeds'] },
  { category: 'too many seeds', query: 'fig3.seeds=100000', banner: ['fig3.seeds'] },
  // unknown enum values
  { category: 'unknown enum', query: 'lang=fr', banner: ['lang'] },
  { category: 'unknown enum', query: 'theme=blue', banner: ['theme'] },
  { category: 'unknown enum', query: 'embed=fig99', banner: ['embed'] },
  { category: 'unknown enum', query: 'fig1.ln=maybe', banner: ['fig1.ln'] },
  { category: 'unknown enum', query: 'fig3.stat=median', banner: ['fig3.stat'] },
  { category: 'unknown enum', query: 'fig3.model=huge', banner: ['fig3.model'] },
  { category: 'unknown enum', query: 'fig2.layer=top', banner: ['fig2.layer'] },
  { category: 'unknown enum', query: 'fig4.warmup_shape=exponential', banner: ['fig4.warmup_shape'] },
  { category: 'unknown enum', query: 'fig4.placements=post,sideways', banner: ['fig4.placements'] },
  { category: 'unknown enum', query: 'fig4.placements=', banner: ['fig4.placements'] },
  { category: 'unknown enum', query: 'fig5.perturbation=huge', banner: ['fig5.perturbation'] },
  // what Figure 4's toy learns (fig4.data) and the language of the article's text (fig4.text_lang)
  { category: 'unknown enum', query: 'fig4.data=txt', banner: ['fig4.data'] },
  { category: 'unknown enum', query: 'fig4.data=TEXT', banner: ['fig4.data'] },
  { category: 'unknown enum', query: 'fig4.data=', banner: ['fig4.data'] },
  { category: 'unknown enum', query: 'fig4.text_lang=fr', banner: ['fig4.text_lang'] },
  // the text's language without data=text means nothing on the chain: no banner, the chain, no run
  { category: 'unknown enum', query: 'fig4.text_lang=zh', banner: [] },
  { category: 'unknown enum', query: 'fig4.data=markov&fig4.text_lang=en', banner: [] },
  // data=text with a bad language: the language is named, and nothing runs (a text grid in another
  // language than the link's is not its run: lib/lab.svelte.ts Lab.applyLink)
  { category: 'unknown enum', query: 'fig4.data=text&fig4.text_lang=fr', banner: ['fig4.text_lang'] },
  { category: 'unknown enum', query: 'fig6.output=both', banner: ['fig6.output'] },
  { category: 'unknown enum', query: 'fig6.input=NaN', banner: ['fig6.input'] },
  { category: 'unknown enum', query: 'fig8.lr=Infinity', banner: ['fig8.lr'] },
  // the composer's placement spec (lib/composer.ts): a bad key is named; a bad preset too
  { category: 'unknown enum', query: 'fig16.norm=batchnorm', banner: ['fig16.norm'] },
  { category: 'unknown enum', query: 'fig16.from=sandwich', banner: ['fig16.from'] },
  { category: 'non-numeric', query: 'fig16.b2t=maybe', banner: ['fig16.b2t'] },
  { category: 'zero', query: 'fig16.residual_scale=completep&fig16.residual_scale.a=0', banner: ['fig16.residual_scale.a'] },
  { category: 'huge', query: `fig16.norm.alpha0=${'9'.repeat(1000)}`, banner: ['fig16.norm.alpha0'] },
  { category: 'unknown enum', query: 'fig15.placement=sideways', banner: ['fig15.placement'] },
  { category: 'injection', query: `fig4.placements=${encodeURIComponent(INJECT[0])}`, banner: ['fig4.placements'] },
  // injection in shown strings (every value is shown in the banner)
  ...INJECT.map((v, i) => ({ category: 'injection', query: `lang=${encodeURIComponent(v)}`, banner: ['lang'], tag: i })),
  { category: 'injection', query: `theme=${encodeURIComponent(INJECT[1])}`, banner: ['theme'] },
  { category: 'injection', query: `embed=${encodeURIComponent(INJECT[3])}`, banner: ['embed'] },
  { category: 'injection', query: `fig4.lrs=${encodeURIComponent(INJECT[2])}`, banner: ['fig4.lrs'] },
  { category: 'injection', query: `fig${encodeURIComponent(INJECT[1])}=1`, banner: [`fig${INJECT[1]}`] },
  { category: 'injection', query: `fig1.step=${encodeURIComponent('<img src=x onerror=alert(1)>')}`, banner: ['fig1.step'] },
  {
    category: 'injection',
    query: `fig4.data=text&fig4.text_lang=${encodeURIComponent(INJECT[1])}`,
    banner: ['fig4.text_lang'],
  },
  { category: 'injection', query: `fig4.data=${encodeURIComponent(INJECT[4])}`, banner: ['fig4.data'] },
  // malformed
  { category: 'malformed', query: 'fig1.step=2&fig1.step=3', banner: ['fig1.step'] },
  { category: 'malformed', query: 'lang=zh&lang=en', banner: ['lang'] },
  { category: 'malformed', query: 'fig4.data=text&fig4.data=markov', banner: ['fig4.data'] },
  { category: 'malformed', query: 'fig4.data=text&fig4.data=text', banner: ['fig4.data'] },
  { category: 'malformed', query: 'fig4.text_lang=en&fig4.text_lang=zh', banner: ['fig4.text_lang'] },
  { category: 'malformed', query: 'lang=%E0%A4%A', banner: ['lang'] },
  { category: 'malformed', query: 'fig2.zoom=2', banner: ['fig2.zoom'] },
  // (10 000 characters: URLs much longer are refused by web servers before the page sees them)
  { category: 'malformed', query: `fig4.steps=${'9'.repeat(10000)}`, banner: ['fig4.steps'] },
  // a bad parameter next to good ones: only the bad one falls back
  { category: 'mixed', query: 'fig1.step=3&fig4.steps=abc&lang=zh', banner: ['fig4.steps'], expect: { fig1Step: '3', lang: 'zh' } },
  { category: 'mixed', query: 'embed=fig2&fig2.layer=99&theme=dark', banner: ['fig2.layer'], expect: { embed: 'fig2', theme: 'dark' } },
].map((c, i) => ({ id: `url-${String(i + 1).padStart(2, '0')}`, ...c }));

// ---- UI ----------------------------------------------------------------------------------------
const ui = (fig, field, error, values, category) => values.map(([value, cat]) => ({ fig, field, error, value, category: cat ?? category }));
/** @type {{id:string, category:string, fig:string, field:string, value:string, error:string}[]} */
export const UI_CASES = [
  ...ui('fig4', 'lrs', 'err.lrs', [
    ['NaN', 'NaN'],
    ['Infinity', '±Infinity'],
    ['-Infinity', '±Infinity'],
    ['0', 'zero'],
    ['-1e-3', 'negative'],
    ['1e999', 'huge'],
    ['20', 'huge'],
    ['abc', 'non-numeric'],
    ['0x10', 'non-numeric'],
    ['', 'non-numeric'],
    ['1e-3, 2e-3, 3e-3', 'too many values'],
    [INJECT[1], 'injection'],
    ['1e-3;alert(1)', 'injection'],
  ]),
  ...ui('fig4', 'warmups', 'err.warmups', [
    ['NaN', 'NaN'],
    ['-300', 'negative'],
    ['1.5', 'non-numeric'],
    ['1e9', 'huge'],
    ['x', 'non-numeric'],
    ['0, 1, 2, 3', 'too many values'],
    [INJECT[0], 'injection'],
  ]),
  ...ui('fig4', 'seeds', 'err.seeds', [
    ['NaN', 'NaN'],
    ['0', 'zero'],
    ['-1', 'negative'],
    ['5', 'too many seeds'],
    ['1000', 'too many seeds'],
    ['2.5', 'non-numeric'],
    ['two', 'non-numeric'],
    ['', 'non-numeric'],
    ['1e400', '±Infinity'],
  ]),
  ...ui('fig4', 'steps', 'err.steps', [
    ['NaN', 'NaN'],
    ['Infinity', '±Infinity'],
    ['0', 'zero'],
    ['-10', 'negative'],
    ['9', 'zero'],
    ['1001', 'huge'],
    ['1e9', 'huge'],
    ['20.5', 'non-numeric'],
    ['abc', 'non-numeric'],
    ['', 'non-numeric'],
  ]),
  ...ui('fig3', 'seeds', 'err.seeds', [
    ['0', 'zero'],
    ['-1', 'negative'],
    ['6', 'too many seeds'],
    ['2.5', 'non-numeric'],
    ['1e9', 'huge'],
    ['', 'non-numeric'],
  ]),
  ...ui('fig3', 'batches', 'err.batches', [
    ['0', 'zero'],
    ['-5', 'negative'],
    ['21', 'huge'],
    ['1.5', 'non-numeric'],
    ['1e9', 'huge'],
    ['', 'non-numeric'],
  ]),
  { fig: 'fig3', field: 'depths', error: 'err.depths', value: '(none ticked)', category: 'zero' },
  // the model sizes (the grid's field table, lib/settings.ts)
  ...ui('fig4', 'layers', 'err.layers', [
    ['0', 'zero'],
    ['25', 'huge'],
    ['NaN', 'NaN'],
    ['2.5', 'non-numeric'],
    [INJECT[1], 'injection'],
  ]),
  ...ui('fig4', 'd', 'err.d', [
    ['1', 'zero'],
    ['-64', 'negative'],
    ['1e9', 'huge'],
    ['Infinity', '±Infinity'],
  ]),
  ...ui('fig4', 'd_ff', 'err.d_ff', [
    ['0', 'zero'],
    ['4096', 'huge'],
  ]),
  ...ui('fig4', 'batch', 'err.batch', [
    ['0', 'zero'],
    ['17', 'huge'],
    ['two', 'non-numeric'],
  ]),
  ...ui('fig4', 'seq', 'err.seq', [
    ['0', 'zero'],
    ['1e400', '±Infinity'],
    ['abc', 'non-numeric'],
  ]),
].map((c, i) => ({ id: `ui-${String(i + 1).padStart(2, '0')}`, ...c }));

// ---- imported run lists (Figure 4's "Import runs…", lib/runs/entry.ts parseRunsFile) -------------
const entry = (over) => ({
  id: 'r1',
  slot: 'grid',
  name: '#1',
  createdAt: '2026-12-01T10:00:00.000Z',
  finishedAt: null,
  config: { steps: 3 },
  status: 'partial',
  message: '',
  fraction: 0.5,
  elapsedMs: 10,
  engine: null,
  doc: null,
  hidden: false,
  imported: null,
  ...over,
});
const runsFile = (runs, over = {}) =>
  JSON.stringify({ format: 'lnx-runs', version: 1, exported: '2026-12-01T10:00:00Z', generator: { page: '', version: '' }, runs, ...over });
/** @type {{id:string, category:string, name:string, content?:string, bytes?:number, message:RegExp, adds:number}[]} */
export const FILE_CASES = [
  { category: 'non-numeric', name: 'notes.txt', content: 'hello', message: /is not a JSON file/, adds: 0 },
  { category: 'malformed', name: 'deep.json', content: '['.repeat(100000), message: /is not a JSON file/, adds: 0 },
  { category: 'malformed', name: 'other.json', content: '{"a":1}', message: /is not a run list exported from this page/, adds: 0 },
  { category: 'unknown enum', name: 'v9.json', content: runsFile([], { version: 9 }), message: /is a run list of version 9/, adds: 0 },
  { category: 'malformed', name: 'norun.json', content: runsFile(null), message: /holds no list of runs/, adds: 0 },
  {
    category: 'malformed',
    name: 'bad.json',
    content: runsFile([5, entry({ slot: 'fig99' }), entry({ status: 'done' })]),
    message: /holds no runs this page can draw.*Skipped run 1.*Skipped run 2.*Skipped run 3/s,
    adds: 0,
  },
  {
    category: 'NaN',
    name: 'nan.json',
    content: runsFile([
      entry({
        status: 'done',
        doc: {
          config: { steps: 3 },
          plateau_entropy: 5,
          optimal_loss: 1,
          uniform_loss: 5,
          runs: [{ placement: 'post', lr: 1e-3, warmup: 0, seed: 0, status: 'ok', loss: ['NaN'] }],
        },
      }),
    ]),
    message: /losses are not numbers/,
    adds: 0,
  },
  {
    category: '±Infinity',
    name: 'inf.json',
    content: runsFile([entry({ elapsedMs: 1 })]).replace('"elapsedMs":1', '"elapsedMs":1e999'),
    message: /run time is not a number/,
    adds: 0,
  },
  { category: 'injection', name: 'inject.json', content: runsFile([entry({ name: INJECT[1] })]), message: /Imported 1 run/, adds: 1 },
  // markup in every string, unknown keys at every level (the file's, the entry's, its config's and
  // engine's): taken as text, the unknown entry keys dropped
  {
    category: 'injection',
    name: 'hostile.json',
    content: runsFile(
      [
        entry({
          id: INJECT[1],
          name: INJECT[1],
          message: INJECT[2],
          config: { steps: 3, [INJECT[1]]: INJECT[1] },
          engine: { flavour: INJECT[1], threads: 2, [INJECT[2]]: 1 },
          [INJECT[0]]: INJECT[1],
          unknown: { nested: INJECT[1] },
        }),
      ],
      { [INJECT[1]]: INJECT[0], generator: { page: INJECT[1], version: INJECT[2] } },
    ),
    message: /Imported 1 run/,
    adds: 1,
  },
  { category: 'huge', name: 'huge.json', bytes: 51 * 1024 * 1024, message: /larger than 50 MB/, adds: 0 },
  { category: 'huge', name: 'huge100.json', bytes: 100 * 1024 * 1024, message: /larger than 50 MB/, adds: 0 },
  { category: 'huge', name: 'million.json', content: runsFile(Array(1e6).fill(5)), message: /holds 1000000 runs; this page imports at most 2000/, adds: 0 },
  // hostile run files (issue 27): checked off the main thread (lib/runs/import-worker.ts), no task
  // over 200 ms on the page while they are read, a message naming the run, the list whole
  {
    category: 'huge',
    name: 'ten-million.json',
    // one run of 10^7 loss points written compactly (about 20 MB), for a 3-step run
    content: runsFile([
      entry({
        name: 'long',
        status: 'done',
        fraction: 1,
        doc: {
          config: { steps: 3, seeds: [0] },
          plateau_entropy: 5,
          optimal_loss: 1,
          uniform_loss: 5,
          runs: [{ placement: 'post', lr: 1e-3, warmup: 0, seed: 0, status: 'ok', loss: [] }],
        },
      }),
    ]).replace('"loss":[]', `"loss":[${'1,'.repeat(1e7 - 1)}1]`),
    message: /Skipped run 1 \(“long”\): its results are malformed \(run 1 holds 10000000 losses where its settings run 3 steps\)/,
    adds: 0,
    quick: true,
  },
  {
    category: 'malformed',
    name: 'deep-config.json',
    content: runsFile([entry({ name: 'deep', config: { steps: 3, deep: 'DEEP' } })]).replace('"DEEP"', `${'{"a":'.repeat(100000)}1${'}'.repeat(100000)}`),
    message: /Skipped run 1 \(“deep”\): its settings are malformed \(it is nested too deeply\)/,
    adds: 0,
    quick: true,
  },
  {
    category: 'injection',
    name: 'bidi.json',
    // a right-to-left override and a 100,000-character name: kept as text, isolated, cut to 200
    content: runsFile([entry({ name: `\u202Eevil\u202C${'x'.repeat(100000)}` })]),
    message: /Imported 1 run/,
    adds: 1,
    quick: true,
  },
  {
    category: 'huge',
    name: 'out-of-range.json',
    content: runsFile([entry({ name: 'wide', config: { steps: 3, d: 1e9 } })]),
    message: /Imported 1 run.*settings the engine would refuse; they are marked/s,
    adds: 1,
    quick: true,
  },
  {
    category: 'zero',
    name: 'bad-spec.json',
    content: runsFile([
      entry({ name: 'spec', config: { steps: 3, placements: ['post', 'c'], placement_spec: { name: 'c', residual_scale: { kind: 'completep', a: 0 } } } }),
    ]),
    message: /Imported 1 run.*settings the engine would refuse; they are marked/s,
    adds: 1,
  },
].map((c, i) => ({ id: `file-${String(i + 1).padStart(2, '0')}`, ...c }));

// ---- engine API ----------------------------------------------------------------------------------
const SMALL = { layers: 2, d: 16, d_ff: 32, vocab: 20, seq: 4, batch: 2 };
const probe = (over) => JSON.stringify({ ...SMALL, seeds: [0], batches: 1, depth_batches: 1, depths: [2], ...over });
const train = (over) => JSON.stringify({ ...SMALL, placement: 'pre', warmup: 0, lr: 0.001, steps: 5, seed: 0, ...over });
const grid = (over) => JSON.stringify({ ...SMALL, placements: ['post', 'pre'], warmups: [0], lrs: [0.001], seeds: [0], steps: 5, ...over });
const raw = (s) => s; // a config text that is not valid JSON on purpose
// Run 0 of the robustness grid (post, no warm-up, lr 1e-3, seed 0) one step in, as a Grid document holds it.
const HANDOFF_RUN = {
  placement: 'post',
  warmup: 0,
  lr: 0.001,
  seed: 0,
  status: 'running',
  stop_step: null,
  from: 0,
  loss: [3],
  grad_norm: [1],
  lr_schedule: [0.001],
};

/** @type {{id:string, category:string, call:string, arg:unknown}[]} */
export const ENGINE_CASES = [
  // NaN (not JSON; and NaN as a step count)
  { category: 'NaN', call: 'ProbeRun', arg: raw(probe({}).replace('"d":16', '"d":NaN')) },
  { category: 'NaN', call: 'TrainRun', arg: raw(train({}).replace('"lr":0.001', '"lr":NaN')) },
  { category: 'NaN', call: 'probe.step', arg: NaN },
  { category: 'NaN', call: 'grid.step', arg: NaN },
  { category: 'NaN', call: 'setThreads', arg: NaN },
  // ±Infinity
  { category: '±Infinity', call: 'ProbeRun', arg: raw(probe({}).replace('"d":16', '"d":Infinity')) },
  { category: '±Infinity', call: 'TrainRun', arg: raw(train({}).replace('"lr":0.001', '"lr":-Infinity')) },
  { category: '±Infinity', call: 'ProbeRun', arg: raw(probe({}).replace('"d":16', '"d":1e999')) },
  { category: '±Infinity', call: 'GridRun', arg: raw(grid({}).replace('[0.001]', '[1e999]')) },
  { category: '±Infinity', call: 'probe.step', arg: Infinity },
  { category: '±Infinity', call: 'grid.step', arg: -Infinity },
  // zero
  ...['d', 'layers', 'd_ff', 'vocab', 'seq', 'batch', 'seeds', 'batches'].map((k) => ({ category: 'zero', call: 'ProbeRun', arg: probe({ [k]: 0 }) })),
  { category: 'zero', call: 'TrainRun', arg: train({ lr: 0 }) },
  { category: 'zero', call: 'TrainRun', arg: train({ steps: 0 }) },
  { category: 'zero', call: 'GridRun', arg: grid({ seeds: [] }) },
  { category: 'zero', call: 'probe.step', arg: 0 },
  // negative
  { category: 'negative', call: 'ProbeRun', arg: probe({ d: -16 }) },
  { category: 'negative', call: 'ProbeRun', arg: probe({ depths: [-2] }) },
  { category: 'negative', call: 'TrainRun', arg: train({ warmup: -1 }) },
  { category: 'negative', call: 'TrainRun', arg: train({ lr: -0.001 }) },
  { category: 'negative', call: 'GridRun', arg: grid({ warmups: [-300] }) },
  { category: 'negative', call: 'grid.step', arg: -1 },
  { category: 'negative', call: 'setThreads', arg: -1 },
  // huge: refused before anything is allocated
  { category: 'huge', call: 'ProbeRun', arg: probe({ d: 1e9 }) },
  { category: 'huge', call: 'ProbeRun', arg: probe({ layers: 1e6 }) },
  { category: 'huge', call: 'ProbeRun', arg: probe({ vocab: 1e7 }) },
  { category: 'huge', call: 'ProbeRun', arg: probe({ seq: 1e6, batch: 1e6 }) },
  { category: 'huge', call: 'ProbeRun', arg: probe({ layers: 48, d: 4096, d_ff: 16384, vocab: 60000, seq: 512, batch: 64 }) },
  { category: 'huge', call: 'TrainRun', arg: train({ layers: 48, d: 4096, d_ff: 16384, vocab: 60000, seq: 512, batch: 64 }) },
  { category: 'huge', call: 'ProbeRun', arg: probe({ depths: [1000] }) },
  { category: 'huge', call: 'TrainRun', arg: train({ steps: 1e12 }) },
  { category: 'huge', call: 'GridRun', arg: grid({ seeds: Array.from({ length: 40 }, (_, i) => i), warmups: [0, 1] }) },
  { category: 'huge', call: 'ProbeRun', arg: raw(JSON.stringify({ pad: 'x'.repeat(2 << 20) })) },
  { category: 'huge', call: 'ProbeRun', arg: raw('['.repeat(100000)) },
  { category: 'huge', call: 'probe.step', arg: 1e12 },
  { category: 'huge', call: 'setThreads', arg: 1e9 },
  // non-numeric and wrong types
  ...[
    ['d', '16'],
    ['d', 'abc'],
    ['d', true],
    ['d', [16]],
    ['d', {}],
    ['seeds', '1'],
    ['depths', '2,4'],
    ['d', 16.5],
  ].map(([k, v]) => ({
    category: 'non-numeric',
    call: 'ProbeRun',
    arg: probe({ [k]: v }),
  })),
  { category: 'non-numeric', call: 'GridRun', arg: grid({ lrs: ['1e-3'] }) },
  { category: 'non-numeric', call: 'probe.step', arg: 1.5 },
  // too many seeds
  { category: 'too many seeds', call: 'ProbeRun', arg: probe({ seeds: Array.from({ length: 1000 }, (_, i) => i) }) },
  { category: 'too many seeds', call: 'GridRun', arg: grid({ seeds: Array.from({ length: 100 }, (_, i) => i) }) },
  { category: 'too many seeds', call: 'GridRun', arg: grid({ seeds: [0, 0] }) },
  // unknown enum values and unknown keys
  { category: 'unknown enum', call: 'TrainRun', arg: train({ placement: 'mid' }) },
  { category: 'unknown enum', call: 'GridRun', arg: grid({ warmup_shape: 'exponential' }) },
  { category: 'unknown enum', call: 'ProbeRun', arg: probe({ attention: 'sideways' }) },
  { category: 'unknown enum', call: 'GridRun', arg: grid({ placements: ['post', 'mid'] }) },
  { category: 'unknown enum', call: 'ProbeRun', arg: probe({ NORM: 'post' }) },
  // injection: the message is shown on the page; it must not echo markup
  ...INJECT.slice(0, 3).map((v) => ({ category: 'injection', call: 'TrainRun', arg: train({ placement: v }) })),
  { category: 'injection', call: 'ProbeRun', arg: probe({ attention: INJECT[1] }) },
  { category: 'injection', call: 'ProbeRun', arg: probe({ [INJECT[0]]: 1 }) },
  { category: 'injection', call: 'ProbeRun', arg: raw('{"attention":"\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"}') },
  // malformed JSON
  ...['', '{', 'null', '[]', '"str"', '{"d":16,}', '{"d":16}{}', '{"d":16 /* c */}', '\ufeff{}', '{"d":16,"d":32}'].map((s) => ({
    category: 'malformed',
    call: 'ProbeRun',
    arg: raw(s),
  })),
  { category: 'malformed', call: 'probe.resultJson', arg: null },
  // the forms' question (checkConfigJson: [kind, config]): answered {ok: false, message}, never thrown
  ...[
    ['huge', ['grid', grid({ seeds: Array.from({ length: 40 }, (_, i) => i), warmups: [0, 1] })]], // 160 runs
    [
      'huge',
      [
        'grid',
        grid({
          layers: 24,
          d: 512,
          d_ff: 512,
          batch: 8,
          seq: 128,
          placements: ['post', 'pre', 'peri', 'deepnorm', 'admin'],
          warmups: [0, 100, 300],
          lrs: [0.001, 0.003],
          seeds: [0, 1],
        }),
      ],
    ], // 60 runs: 30 GB at once
    ['huge', ['probe', probe({ d: 512, d_ff: 2048, batch: 2, seq: 32, depths: [2, 40] })]],
    ['huge', ['probe', probe({ d: 1e9 })]],
    ['NaN', ['train', raw(train({}).replace('"lr":0.001', '"lr":NaN'))]],
    ['malformed', ['grid', raw('{')]],
    ['malformed', ['grid', raw('['.repeat(100000))]],
    ['unknown enum', ['tensor', '{}']],
    ['unknown enum', ['grid', grid({ placements: ['post', 'mid'] })]],
    ['injection', [INJECT[1], '{}']],
    ['injection', ['probe', probe({ attention: INJECT[1] })]],
  ].map(([category, arg]) => ({ category, call: 'checkConfigJson', arg })),
  // a grid continued from another backend's work (GridRun.continueRun: [run, runJson, checkpoint, backend])
  ...[
    ['malformed', [0, '{', null, 'webgpu']],
    ['malformed', [0, JSON.stringify({ ...HANDOFF_RUN, loss: [4, 4] }), null, 'webgpu']], // unequal series
    ['out of range', [7, JSON.stringify(HANDOFF_RUN), null, 'webgpu']],
    ['non-numeric', [NaN, JSON.stringify(HANDOFF_RUN), null, 'webgpu']],
    ['out of range', [1, JSON.stringify(HANDOFF_RUN), null, 'webgpu']], // run 0's document for run 1
    ['out of range', [0, JSON.stringify({ ...HANDOFF_RUN, lr_schedule: [0.003] }), null, 'webgpu']], // another schedule
    ['out of range', [0, JSON.stringify(HANDOFF_RUN), { step: 1, values: new Float32Array(3) }, 'webgpu']], // another model's size
    ['out of range', [0, JSON.stringify(HANDOFF_RUN), { step: 5, values: new Float32Array(3) }, 'webgpu']], // after the steps held
    ['non-numeric', [0, JSON.stringify(HANDOFF_RUN), { step: NaN, values: new Float32Array(3) }, 'webgpu']],
    ['non-numeric', [0, JSON.stringify(HANDOFF_RUN), { step: 1, values: 'abc' }, 'webgpu']],
    ['unknown enum', [0, JSON.stringify(HANDOFF_RUN), null, 'cuda']],
    ['injection', [0, JSON.stringify({ ...HANDOFF_RUN, placement: INJECT[0], status: INJECT[1] }), null, 'webgpu']],
  ].map(([category, arg]) => ({ category, call: 'grid.continueRun', arg })),
  // a probe continued from another backend's finished jobs (ProbeRun.continueFrom: [handoffJson, backend])
  ...[
    ['malformed', ['{', 'webgpu']],
    ['malformed', ['[]', 'webgpu']],
    ['malformed', [JSON.stringify({ jobs: 1 }), 'webgpu']], // no seeds
    ['out of range', [JSON.stringify({ jobs: 99, seeds: {} }), 'webgpu']], // more jobs than the plan
    ['non-numeric', [JSON.stringify({ jobs: 'one', seeds: {} }), 'webgpu']],
    [
      'out of range',
      [
        JSON.stringify({
          jobs: 1,
          seeds: { post: [{ w2_paper: [1], w2_batch: [1], norm2: [1], last_w2: [] }], pre: [{ w2_paper: [], w2_batch: [], norm2: [], last_w2: [] }] },
        }),
        'webgpu',
      ],
    ], // another model's depth
    ['non-numeric', [JSON.stringify({ jobs: 0, seeds: { post: [{ w2_paper: [], w2_batch: [], norm2: [], last_w2: [['a', 1, 2]] }], pre: [{}] } }), 'webgpu']],
    [
      'unknown enum',
      [
        JSON.stringify({
          jobs: 0,
          seeds: { post: [{ w2_paper: [], w2_batch: [], norm2: [], last_w2: [] }], pre: [{ w2_paper: [], w2_batch: [], norm2: [], last_w2: [] }] },
        }),
        'cuda',
      ],
    ],
    ['injection', [JSON.stringify({ jobs: 0, seeds: { [INJECT[0]]: [] } }), 'webgpu']],
  ].map(([category, arg]) => ({ category, call: 'probe.continueFrom', arg })),
].map((c, i) => ({ id: `api-${String(i + 1).padStart(3, '0')}`, ...c }));

/**
 * Values the engine accepts on purpose: JSON null and the empty string mean "the default" (the
 * parser treats a null key as absent). Checked to give exactly the default config, so they are
 * never silently something else.
 */
export const ENGINE_DEFAULT_CASES = [
  { category: 'null / empty = default', call: 'ProbeRun', key: 'd', value: null },
  { category: 'null / empty = default', call: 'ProbeRun', key: 'seeds', value: null },
  { category: 'null / empty = default', call: 'TrainRun', key: 'placement', value: '' },
  { category: 'null / empty = default', call: 'TrainRun', key: 'lr', value: null },
].map((c, i) => ({ id: `api-d${i + 1}`, ...c }));

export const CORPUS_SIZE = URL_CASES.length + UI_CASES.length + FILE_CASES.length + ENGINE_CASES.length + ENGINE_DEFAULT_CASES.length;
