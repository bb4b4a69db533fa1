// prose-numbers.test.ts — the numbers the prose quotes (web/src/lib/prose-numbers.ts), table-driven,
// and the articles' {{key}}s against them and against content/prose-numbers.md.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import {
  PROSE_NUMBER_KEYS,
  armWarmup,
  armsPhrase,
  changedNotes,
  proseNumbers,
  proseNumbersInSlices,
  cellRuns,
  crossoverDepth,
  finalLoss,
  firstBelow,
  sameNumbers,
} from '../../web/src/lib/prose-numbers';
import { seedMean } from '../../web/src/engine/documents';
import { renderInline } from '../../web/src/lib/inline';
import { FIGURES, figureNumber } from '../../web/src/figures/registry';
import { EXPERIMENT_SLOTS, precomputedPath, type ExperimentSlot } from '../../web/src/lib/slots';
import { TEXT as EN } from '../../web/src/content/en';
import { TEXT as ZH } from '../../web/src/content/zh';
import { grid, probe, run } from './fixtures';
import { Results } from '../../web/src/lib/result-slots.svelte';
import { LiveRuns } from '../../web/src/lib/runs/live-runs.svelte';
import { SLOT_NAMES } from '../../web/src/lib/slots';

describe('proseNumbers: probe keys', () => {
  const en = proseNumbers(probe(), null, 'en');
  it.each([
    ['post.norm2', '1.50, 1.50, 1.50'],
    ['post.norm2.maxstd', '0.04'],
    ['post.norm2.mean', '1.50'],
    ['pre.norm2', '2.00, 3.00, 4.00'],
    ['pre.norm2.last', '4.00'],
    ['pre.norm2.step', '1.00'],
    ['pre.gain', '0.50'],
    ['post.gain', '0.80'],
    ['post.w2.paper', '0.50, 0.50, 0.50'],
    ['post.w2.batch.min', '1.00'],
    ['post.w2.batch.max', '1.20'],
    ['pre.w2.batch.first', '4.00'],
    ['pre.w2.batch.last', '2.00'],
    ['pre.w2.batch.ratio', '2.0'],
    ['depth.pre.L6', '1.60'],
    ['depth.post.L6', '1.00'],
    ['depth.crossover', '8'],
    ['depth.pre.ratio', '0.25'],
    ['depth.sqrtL.ratio', '0.77'],
    ['depth.min', '6'],
    ['depth.max', '10'],
    ['probe.d', '64'],
  ])('%s = %s', (k, v) => expect(en[k]).toBe(v));

  it('lists use the Chinese enumeration comma in zh', () => {
    expect(proseNumbers(probe(), null, 'zh')['pre.norm2']).toBe('2.00、3.00、4.00');
  });
  it('no crossover → —', () => {
    const p = probe();
    for (const L of ['6', '8', '10']) p.placements.pre!.lastW2_vs_L[L].W2_per_batch.mean = 5;
    expect(crossoverDepth(p)).toBeNull();
    expect(proseNumbers(p, null, 'en')['depth.crossover']).toBe('—');
  });
  it('a single depth → ratios are —', () => {
    const p = probe();
    p.placements.pre!.lastW2_vs_L = { '6': p.placements.pre!.lastW2_vs_L['6'] };
    p.placements.post!.lastW2_vs_L = { '6': p.placements.post!.lastW2_vs_L['6'] };
    const b = proseNumbers(p, null, 'en');
    expect(b['depth.pre.ratio']).toBe('—');
    expect(b['depth.sqrtL.ratio']).toBe('—');
    expect(b['depth.pre.L6']).toBe('1.60');
  });
});

describe('proseNumbers: toy keys', () => {
  const b = proseNumbers(null, grid(), 'en');
  it.each([
    ['toy.plateau', '5.00'],
    ['toy.lnV', '5.50'],
    ['toy.opt', '1.00'],
    ['toy.post.w0.lo.final', '5.00'],
    ['toy.post.w0.hi.final', '5.00'],
    ['toy.post.w300.lo.final', '2.00'],
    ['toy.post.w300.hi.final', '5.00'],
    ['toy.pre.w0.lo.final', '1.55'],
    ['toy.pre.w300.lo.final', '1.55'],
    ['toy.pre.w0.hi.final', '1.55'],
    ['toy.pre.w0.lo.at100', '1.55'],
    ['toy.post.w300.lo.break', '150'],
    ['toy.pre.delay', '50'],
    ['toy.steps', '200'],
    ['toy.seeds', '2'],
    ['toy.optimizer', 'Adam'],
    ['toy.model', 'the toy model'],
    ['toy.warmups', '0, 100'],
    ['toy.lrs', '10⁻³, 3×10⁻³'],
  ])('%s = %s', (k, v) => expect(b[k]).toBe(v));

  it('the caption keys follow the drawn grid: its optimizer by the page name, lists in the language', () => {
    const g = grid();
    g.config.optimizer = 'sgd';
    for (const r of g.runs) r.warmup = r.warmup ? 250 : 0;
    const zh = proseNumbers(null, g, 'zh');
    expect(proseNumbers(null, g, 'en')['toy.optimizer']).toBe('SGD with momentum');
    expect(zh['toy.warmups']).toBe('0、250');
    expect(zh['toy.lrs']).toBe('10⁻³、3×10⁻³');
    expect(proseNumbers(null, null, 'en')['toy.optimizer']).toBe('—');
  });

  it("toy.model names the drawn grid's architecture choices away from the engine's defaults, in the language", () => {
    const g = grid();
    expect(proseNumbers(null, g, 'zh')['toy.model']).toBe('玩具模型');
    Object.assign(g.config, { final_norm: 'off', norm_type: 'rmsnorm', output: 'tied' });
    expect(proseNumbers(null, g, 'en')['toy.model']).toBe('the toy model (RMSNorm, no final norm)');
    expect(proseNumbers(null, g, 'zh')['toy.model']).toBe('玩具模型（RMSNorm，没有最后的归一化）');
  });

  it('toy.post.w300.hi.break: where the lr-3e-3 warm-up curve leaves the plateau, — when it never does', () => {
    expect(b['toy.post.w300.hi.break']).toBe(proseNumbers(null, grid(), 'en')['toy.post.w300.hi.break']);
    expect(b['toy.post.w300.hi.break'] ?? '—').toBe('—'); // the fixture's curve stays on the plateau
    const g = grid();
    const lo = g.runs.filter((x) => x.placement === 'post' && x.warmup !== 0 && x.lr === 0.001);
    for (const r of g.runs.filter((x) => x.placement === 'post' && x.warmup !== 0 && x.lr === 0.003)) r.loss = [...lo.find((x) => x.seed === r.seed)!.loss];
    expect(proseNumbers(null, g, 'en')['toy.post.w300.hi.break']).toBe('150');
  });

  it('a diverged seed makes the final loss —, and the rest keeps going', () => {
    const g = grid();
    const r = g.runs.find((x) => x.placement === 'post' && x.warmup === 0 && x.lr === 0.003 && x.seed === 1)!;
    r.status = 'nan';
    r.stop_step = 51;
    r.loss = r.loss.slice(0, 50);
    const bb = proseNumbers(null, g, 'en');
    expect(bb['toy.post.w0.hi.final']).toBe('—');
    expect(bb['toy.pre.w0.lo.final']).toBe('1.55');
  });
  it('a missing step 100 → —', () => {
    const g = grid();
    for (const r of g.runs) r.loss = r.loss.slice(0, 60);
    expect(proseNumbers(null, g, 'en')['toy.pre.w0.lo.at100']).toBe('—');
  });
});

describe('a note after a name, in each language’s parentheses (sep.aside)', () => {
  it.each([
    ['en', '0, 100 (half-cosine)'],
    ['zh', '0、100（半余弦）'],
  ] as const)('%s: the warm-ups drawn and their shape', (lang, want) => {
    const g = grid();
    (g.config as unknown as Record<string, unknown>).warmup_shape = 'cosine';
    expect(proseNumbers(null, g, lang)['toy.warmups']).toBe(want);
  });
});

describe('grid helpers', () => {
  it('w300 falls back to the longest nonzero warm-up', () => {
    expect(armWarmup(grid(), 'w300')).toBe(100);
    expect(armWarmup(grid(), 'w0')).toBe(0);
  });
  it('cellRuns picks lo/hi lr', () => {
    expect(cellRuns(grid(), 'pre', 'w0', 'hi').every((r) => r.lr === 0.003)).toBe(true);
    expect(cellRuns(grid(), 'pre', 'w0', 'lo')).toHaveLength(2);
  });
  it('seedMean stops at the shortest seed', () => {
    const a = run({ placement: 'pre', warmup: 0, lr: 1, seed: 0, loss: [4, 2, 2] });
    const c = run({ placement: 'pre', warmup: 0, lr: 1, seed: 1, loss: [2, 2] });
    expect(seedMean([a, c])).toEqual([3, 2]);
    expect(seedMean([])).toEqual([]);
  });
  it('finalLoss needs every seed ok', () => {
    const a = run({ placement: 'pre', warmup: 0, lr: 1, seed: 0, loss: [4, 2] });
    const c = run({ placement: 'pre', warmup: 0, lr: 1, seed: 1, loss: [2, 4], status: 'running' });
    expect(finalLoss([a])).toBe(2);
    expect(finalLoss([a, c])).toBeNull();
  });
  it('firstBelow is 1-based', () => {
    expect(firstBelow([5, 4, 3], 3.5)).toBe(3);
    expect(firstBelow([5], 1)).toBeNull();
  });
});

describe('the keys', () => {
  it('with no results every key that reads a result is —; the composer’s model (the engine’s defaults) is a number', () => {
    const b = proseNumbers(null, null, 'en');
    expect(Object.keys(b).sort()).toEqual([...PROSE_NUMBER_KEYS].sort());
    for (const k of PROSE_NUMBER_KEYS)
      if (k.startsWith('composer.')) expect(b[k], k).toMatch(/^\d+$/);
      else expect(b[k], k).toBe('—');
  });
  it('never throws on malformed documents', () => {
    expect(() => proseNumbers({} as never, { runs: [] } as never, 'zh')).not.toThrow();
  });
});

/** Every {{key}} used anywhere in an article (prose, captions, figure and ui strings). */
function keysIn(x: unknown, out = new Set<string>()): Set<string> {
  if (typeof x === 'string') for (const m of x.matchAll(/\{\{\s*([A-Za-z][\w.-]*)\s*\}\}/g)) out.add(m[1]);
  else if (Array.isArray(x)) x.forEach((v) => keysIn(v, out));
  else if (x && typeof x === 'object') Object.values(x).forEach((v) => keysIn(v, out));
  return out;
}

describe.each(['zh', 'en'] as const)('content/%s.ts uses only keys of prose-numbers.ts', (lang) => {
  const file = new URL(`../../web/src/content/${lang}.ts`, import.meta.url);
  it.skipIf(!existsSync(file))('every {{key}} is in PROSE_NUMBERS', async () => {
    const mod = (await import(/* @vite-ignore */ file.href)) as Record<string, unknown>;
    const used = keysIn(mod.default ?? mod);
    expect(used.size).toBeGreaterThan(0);
    const missing = [...used].filter((k) => !PROSE_NUMBER_KEYS.includes(k));
    expect(missing, `add these to PROSE_NUMBERS in web/src/lib/prose-numbers.ts`).toEqual([]);
  });
  it.skipIf(!existsSync(file))('renders with no [?key] marker', async () => {
    const mod = (await import(/* @vite-ignore */ file.href)) as Record<string, unknown>;
    const b = proseNumbers(probe(), grid(), lang);
    const unknown: string[] = [];
    const walk = (x: unknown) => {
      if (typeof x === 'string') renderInline(x, { bindings: b, onUnknownKey: (k) => unknown.push(k), figureLabel: (id) => figureNumber(id) });
      else if (x && typeof x === 'object') Object.values(x).forEach(walk);
    };
    walk(mod.default ?? mod);
    expect(unknown).toEqual([]);
  });
});

describe('content/prose-numbers.md', () => {
  it('lists exactly the {{key}}s the two articles use', async () => {
    const used = new Set<string>();
    for (const lang of ['zh', 'en']) keysIn((await import(`../../web/src/content/${lang}.ts`)).default, used);
    const md = readFileSync(new URL('../../web/src/content/prose-numbers.md', import.meta.url), 'utf8');
    const listed = new Set([...md.matchAll(/^\| `([\w.-]+)` \|/gm)].map((m) => m[1]));
    expect(
      [...used].filter((k) => !listed.has(k)),
      'used but not listed',
    ).toEqual([]);
    expect(
      [...listed].filter((k) => !used.has(k)),
      'listed but not used',
    ).toEqual([]);
  });
});

// Every experiment figure's caption at its slot's quick setting (the `small` of its experiment
// table, experiments/*.ts): the precomputed document as a quick run writes it (its config with the
// small setting; a phase-diagram document holds only the cells of the lrs, warm-ups and depths it
// ran). A number such a run does not have reads as words about what was not run, never as a '—'
// inside a sentence (Figure 13's quick setting runs no warm-up arm: its caption said "with —
// (article: 300) steps of it").
describe('experiment captions at the quick setting', () => {
  const quickDoc = (slot: ExperimentSlot) => {
    const doc = JSON.parse(readFileSync(new URL(`../../public/${precomputedPath(slot)}`, import.meta.url), 'utf8'));
    const config = { ...doc.config, ...EXPERIMENT_SLOTS[slot].small };
    const keep = (c: Record<string, unknown>) =>
      (['lrs', 'warmups', 'depths'] as const).every((k) => {
        const want = config[k] as number[] | undefined;
        const v = c[k === 'lrs' ? 'lr' : k === 'warmups' ? 'warmup' : 'layers'];
        return !Array.isArray(want) || v === undefined || want.includes(v as number);
      });
    return { ...doc, config, ...(Array.isArray(doc.cells) ? { cells: doc.cells.filter(keep) } : {}) };
  };
  const rows = FIGURES.flatMap((f) => (f.slot && f.slot in EXPERIMENT_SLOTS ? [[f.id, f.slot as ExperimentSlot] as const] : []));
  it('covers every experiment figure', () => expect(rows.map(([id]) => id)).toEqual(expect.arrayContaining(['fig13', 'fig14', 'fig15', 'fig19'])));
  it.each(rows.flatMap(([id, slot]) => (['en', 'zh'] as const).map((lang) => [id, slot, lang] as const)))(
    '%s (slot %s, %s): no bound value of its caption is —',
    (id, slot, lang) => {
      const b = proseNumbers(null, null, lang, { [slot]: quickDoc(slot) });
      const html = renderInline((lang === 'en' ? EN : ZH).figures[id].caption, { bindings: b });
      const dashes = [...html.matchAll(/data-key="([^"]+)">—</g)].map((m) => m[1]);
      expect(dashes).toEqual([]);
    },
  );
  it('Figure 13’s quick setting (no warm-up arm) says so in words, in both languages', () => {
    const doc = quickDoc('deepNorm');
    expect(doc.config.warmups).toEqual([0]);
    const plain = (lang: 'en' | 'zh') =>
      renderInline((lang === 'en' ? EN : ZH).figures.fig13.caption, { bindings: proseNumbers(null, null, lang, { deepNorm: doc }) }).replace(/<[^>]+>/g, '');
    expect(plain('en')).toContain('for every placement, without warm-up only (the drawn run has no warm-up arm), the step');
    expect(plain('zh')).toContain('每种摆法只有不预热的一组（画出的运行没有预热），每组一行');
    // the reference's: both arms, its warm-up's length
    const ref = JSON.parse(readFileSync(new URL(`../../public/${precomputedPath('deepNorm')}`, import.meta.url), 'utf8'));
    expect(proseNumbers(null, null, 'en', { deepNorm: ref })['exp.dn.arms']).toBe('without warm-up and with 300 steps of it');
  });
  it.each<[unknown, 'plain' | 'lines', 'en' | 'zh', string | null]>([
    [[0, 300], 'plain', 'en', 'without warm-up and with 300 steps of it'],
    [[0], 'plain', 'en', 'without warm-up only (the drawn run has no warm-up arm)'],
    [[100], 'plain', 'en', 'with 100 steps of warm-up only (the drawn run has no arm without it)'],
    [[0, 100, 50], 'plain', 'en', 'without warm-up and with 50, 100 steps of it'],
    [[0, 100], 'lines', 'en', 'without warm-up (solid) and with 100 steps of it (dashed)'],
    [[0], 'lines', 'en', 'without warm-up only (solid; the drawn run has no warm-up arm)'],
    [[0, 300], 'plain', 'zh', '不预热和预热 300 步各一组'],
    [[0], 'plain', 'zh', '只有不预热的一组（画出的运行没有预热）'],
    [[0], 'lines', 'zh', '只有不预热（实线；画出的运行没有预热）'],
    [[120], 'lines', 'zh', '只有预热 120 步（虚线；画出的运行没有不预热的一组）'],
    [[], 'plain', 'en', null],
    [undefined, 'plain', 'en', null],
    [['x'], 'plain', 'en', null],
  ])('armsPhrase(%j, %s, %s) = %s', (ws, style, lang, want) => expect(armsPhrase(ws, style, lang)).toBe(want));
  it('a live run’s arms are not followed by the reference’s (its drawing shows both): DESCRIBES_DRAWING', () => {
    const ref = proseNumbers(null, null, 'en', { deepNorm: quickDoc('deepNorm') });
    const now = proseNumbers(null, null, 'en', {
      deepNorm: JSON.parse(readFileSync(new URL(`../../public/${precomputedPath('deepNorm')}`, import.meta.url), 'utf8')),
    });
    expect(changedNotes(now, ref, (a) => ` (article: ${a})`)).not.toHaveProperty('exp.dn.arms');
  });
});

describe('sameNumbers (the live page keeps its record while the values stay)', () => {
  it.each<[Record<string, string>, Record<string, string>, boolean]>([
    [{ a: '1', b: '2' }, { b: '2', a: '1' }, true],
    [{ a: '1' }, { a: '2' }, false],
    [{ a: '1' }, { a: '1', b: '—' }, false],
    [{}, {}, true],
  ])('%j vs %j → %s', (a, b, want) => expect(sameNumbers(a, b)).toBe(want));
});

describe('the numbers computed a few at a time (the page’s first reading of them: proseNumbersInSlices)', () => {
  const precomputed = (slot: ExperimentSlot | 'probe' | 'grid') =>
    JSON.parse(readFileSync(new URL(`../../public/${precomputedPath(slot)}`, import.meta.url), 'utf8'));
  const E = Object.fromEntries((Object.keys(EXPERIMENT_SLOTS) as ExperimentSlot[]).map((k) => [k, precomputed(k)]));
  it.each(['en', 'zh'] as const)('%s: the same record, key for key and in the same order, as proseNumbers on the precomputed documents', async (lang) => {
    // a clock that moves 1 ms per reading: a slice of 3 ms is a key or two
    let clock = 0;
    let turns = 0;
    const sliced = await proseNumbersInSlices(
      precomputed('probe'),
      precomputed('grid'),
      lang,
      E,
      async () => void turns++,
      3,
      () => clock++,
    );
    const whole = proseNumbers(precomputed('probe'), precomputed('grid'), lang, E);
    expect(Object.entries(sliced)).toEqual(Object.entries(whole));
    expect(turns).toBeGreaterThanOrEqual(Math.floor(PROSE_NUMBER_KEYS.length / 4));
    // a clock that never moves: one slice, no turn given
    turns = 0;
    await proseNumbersInSlices(
      null,
      null,
      lang,
      {},
      async () => void turns++,
      3,
      () => 0,
    );
    expect(turns).toBe(0);
  });

  it('the page’s results remember the record for the documents it was computed from, the reference’s through a live run', async () => {
    const results = new Results(new LiveRuns(SLOT_NAMES, null));
    results.usePrecomputed({ probe: precomputed('probe'), grid: precomputed('grid'), ...E });
    let turns = 0;
    await results.prepareNumbers('en', async () => void turns++, 0); // a turn after every key
    expect(turns).toBe(PROSE_NUMBER_KEYS.length);
    const reference = results.proseNumbers('en', 'precomputed');
    expect(reference).toEqual(proseNumbers(precomputed('probe'), precomputed('grid'), 'en', E));
    // prepared once: the drawn documents are the precomputed ones, and both readings are that record
    expect(results.proseNumbers('en')).toBe(reference);
    await results.prepareNumbers('en', async () => void turns++, 0);
    expect(turns).toBe(PROSE_NUMBER_KEYS.length); // not computed again
    expect(results.proseNumbers('en', 'precomputed')).toBe(reference);
    // another language is another record
    expect(results.proseNumbers('zh', 'precomputed')).not.toBe(reference);
    expect(results.proseNumbers('zh', 'precomputed')['toy.lrs']).toBe(proseNumbers(precomputed('probe'), precomputed('grid'), 'zh', E)['toy.lrs']);
    // a grid streaming: its numbers are computed anew, the reference's stay remembered
    const g = grid();
    results.grid.partial = g;
    const drawn = results.proseNumbers('en');
    expect(drawn).not.toBe(reference);
    expect(drawn['toy.seeds']).toBe(proseNumbers(precomputed('probe'), g, 'en', E)['toy.seeds']);
    expect(results.proseNumbers('en')).toBe(drawn);
    results.grid.partial = grid(); // the next report: a new document
    expect(results.proseNumbers('en')).not.toBe(drawn);
    expect(results.proseNumbers('en', 'precomputed')).toBe(reference);
    // the run over: the reference drawn again, its record
    results.grid.partial = null;
    expect(results.proseNumbers('en')).toBe(reference);
  });
});
