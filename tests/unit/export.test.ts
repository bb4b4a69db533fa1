// Exports: provenance, CSV/JSON, file names, PNG text chunks (web/src/lib/export.ts) and the
// per-figure tables (web/src/figures/figN/downloads.ts) and the on-page tables of placement series
// (web/src/lib/series-table.ts), table-driven.
import { describe, expect, it } from 'vitest';
import {
  collapseGaps,
  crc32,
  csvField,
  fileName,
  itxtChunk,
  pngChunks,
  pngInsertChunks,
  provenance,
  provenanceChunks,
  provenanceLine,
  seedsOf,
  textChunk,
  toCsv,
  toJson,
  xmlEscape,
} from '../../web/src/lib/export';
import { fig1Table } from '../../web/src/figures/fig1/downloads';
import { fig2Table } from '../../web/src/figures/fig2/downloads';
import { fig3Table } from '../../web/src/figures/fig3/downloads';
import { fig4Table } from '../../web/src/figures/fig4/downloads';
import { figureStepTable, lineName, seriesTable, stepRowsTable } from '../../web/src/lib/series-table';
import { UI_STRINGS } from '../../web/src/content/ui-strings';
import { grid, phaseDiagram, probe } from './fixtures';
import { fig15Json, fig15Table } from '../../web/src/figures/fig15/downloads';
import { fig14Json } from '../../web/src/figures/fig14/downloads';

const now = new Date('2026-11-29T10:00:00Z');

describe('provenance', () => {
  it('precomputed: the file date, engine and config; seeds from the config', () => {
    const P = { ...probe(), generated: '2026-11-01T00:00:00Z', precomputed: true };
    const p = provenance({ figure: 'fig3', title: 'T', url: 'u', source: 'precomputed', doc: P as never, now, lang: 'en' });
    expect(p).toMatchObject({
      generator: 'ln-explorable',
      figure: 'fig3',
      source: 'precomputed',
      computed: '2026-11-01T00:00:00Z',
      exported: '2026-11-29T10:00:00.000Z',
    });
    expect(p.engine).toEqual({ version: '0.1.0', build: 'native', threads: 1 });
    expect(p.seeds).toEqual([0, 1]);
    expect(p.config).toEqual(P.config);
    expect(provenanceLine(p)).toBe('ln-explorable · fig3 · precomputed · engine 0.1.0 native · 2026-11-01');
  });
  it('live: the end of the run; static (Figure 1): no engine', () => {
    const live = provenance({ figure: 'fig4', title: 'T', url: 'u', source: 'live', doc: grid() as never, liveAt: '2026-11-29T09:59:00Z', now, lang: 'zh' });
    expect(live.computed).toBe('2026-11-29T09:59:00Z');
    expect(live.seeds).toEqual([0, 1]);
    const st = provenance({ figure: 'fig1', title: 'T', url: 'u', source: 'static', doc: null, now, lang: 'en', view: { step: 3 } });
    expect(st).toMatchObject({ engine: null, config: null, seeds: null, computed: null, view: { step: 3 } });
    expect(provenanceLine(st)).toBe('ln-explorable · fig1 · static · 2026-11-29');
  });
  it.each([
    [{ seeds: [0, 3] }, [0, 3]],
    [{ seeds: 3 }, [0, 1, 2]],
    [{ seeds: -1 }, null],
    [{ seed: 7 }, [7]],
    [{ seed: 7, seeds: [1, 2] }, [1, 2]],
    [{ seeds: 1e9 }, null],
    [{}, null],
    [null, null],
  ])('seedsOf(%j)', (c, want) => expect(seedsOf(c as never)).toEqual(want));
});

describe('CSV', () => {
  it.each([
    [1.5, '1.5'],
    [1e-7, '1e-7'],
    [NaN, ''],
    [Infinity, ''],
    [null, ''],
    [undefined, ''],
    [true, 'true'],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['-cmd', "'-cmd"],
    ['@SUM(A1)', "'@SUM(A1)"],
    [' padded', '" padded"'],
    ['<script>', '<script>'],
  ])('csvField(%j) → %s', (v, want) => expect(csvField(v as never)).toBe(want));

  it('provenance comment lines, then header and rows, CRLF', () => {
    const p = provenance({ figure: 'fig4', title: 'A, "B"', url: 'https://x/?a=1', source: 'live', doc: grid() as never, now, lang: 'en' });
    const csv = toCsv(
      {
        columns: ['a', 'b'],
        rows: [
          [1, 'x'],
          [NaN, null],
        ],
      },
      p,
    );
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('# generator: ln-explorable');
    expect(lines).toContain('# title: A, "B"');
    expect(lines.find((l) => l.startsWith('# config: '))).toContain('"steps":200');
    expect(lines.slice(-4)).toEqual(['a,b', '1,x', ',', '']);
  });
  it('JSON: provenance + data, non-finite numbers as null', () => {
    const p = provenance({ figure: 'fig2', title: 'T', url: 'u', source: 'live', doc: null, now, lang: 'en' });
    const j = JSON.parse(toJson({ xs: [1, NaN, Infinity] }, p));
    expect(j.provenance.figure).toBe('fig2');
    expect(j.data.xs).toEqual([1, null, null]);
  });
  it.each([
    ['fig4', 'live', 'csv', now, 'ln-explorable-fig4-live-2026-11-29.csv'],
    ['fig1', 'static', 'svg', '2026-01-02T03:04:05Z', 'ln-explorable-fig1-static-2026-01-02.svg'],
    ['../x', 'live', 'png', now, 'ln-explorable-x-live-2026-11-29.png'],
  ] as const)('fileName(%s, %s, %s)', (f, s, k, d, want) => expect(fileName(f, s, k, d)).toBe(want));
  it('xmlEscape', () => expect(xmlEscape('<a b="c">&\u0001')).toBe('&lt;a b=&quot;c&quot;&gt;&amp;'));
});

describe('PNG text chunks', () => {
  // a valid 1×1 PNG (signature, IHDR, IDAT, IEND)
  const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
  it('crc32 of "IEND" is the well-known AE426082', () => expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082));
  it('crc32 of "123456789" is CBF43926', () => expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926));
  it('the sample is read back chunk by chunk with valid CRCs', () =>
    expect(pngChunks(png).map((c) => [c.type, c.crcOk])).toEqual([
      ['IHDR', true],
      ['IDAT', true],
      ['IEND', true],
    ]));
  it('inserted chunks sit after IHDR, with valid CRCs, and the provenance reads back', () => {
    const p = provenance({ figure: 'fig3', title: '图 3', url: 'u', source: 'live', doc: probe() as never, now, lang: 'zh' });
    const out = pngInsertChunks(png, provenanceChunks(p));
    const cs = pngChunks(out);
    expect(cs.map((c) => c.type)).toEqual(['IHDR', 'tEXt', 'iTXt', 'IDAT', 'IEND']);
    expect(cs.every((c) => c.crcOk)).toBe(true);
    const itxt = cs[2].data;
    const text = new TextDecoder().decode(itxt.subarray(itxt.indexOf(0) + 5));
    expect(JSON.parse(text).title).toBe('图 3');
    expect(new TextDecoder('latin1').decode(cs[1].data)).toBe('Software\0ln-explorable (engine 0.1.0)');
  });
  it('tEXt replaces non-Latin-1 characters; iTXt keeps UTF-8', () => {
    expect([...textChunk('k', 'é图').subarray(8, 13)]).toEqual([107, 0, 233, 63, textChunk('k', 'é图')[12]]);
    expect(new TextDecoder().decode(itxtChunk('k', '图').subarray(8 + 6, 8 + 6 + 3))).toBe('图');
  });
  it('refuses a buffer that is not a PNG', () => expect(() => pngInsertChunks(new Uint8Array(40), [])).toThrow('not a PNG'));
});

describe('figure tables', () => {
  it('fig1: six steps, factor text plain with bindings filled', () => {
    const t = fig1Table({ f_loss: 'Loss $\\sqrt{d}$ {{x}}', finalLn: 'Final LN' }, { x: '0.42' });
    expect(t.rows).toHaveLength(6);
    expect(t.rows[0]).toEqual([1, 'ℒ', 'ℒ', 'Loss √d 0.42']);
    expect(t.rows[2].slice(0, 3)).toEqual([3, '', 'Final LN']);
    expect(t.rows[3][2]).toBe('');
  });
  it('fig2: one row per layer plus the Final LN with the gain', () => {
    const t = fig2Table(probe());
    expect(t.rows).toHaveLength(4);
    expect(t.rows[0]).toEqual([1, 2, 0.1, 1.5, 2.5, null, null]);
    expect(t.rows[3]).toEqual(['final', 1, 0, null, null, 0.5, 0.02]);
    expect(fig2Table(null).rows).toEqual([]);
  });
  it('fig3: long rows for (a), (b) with the band, (c) with the extrapolation', () => {
    const t = fig3Table(probe());
    const count = (panel: string, stat?: string) => t.rows.filter((r) => r[0] === panel && (!stat || r[4] === stat)).length;
    expect(count('a')).toBe(2 * 2 * 3);
    expect(count('b', 'norm2_over_d')).toBe(2 * 3);
    expect(count('b', 'lemma2_lo')).toBe(3);
    expect(count('c', 'W2_per_batch')).toBe(2 * 3);
    const ex = t.rows.filter((r) => r[4] === 'extrapolation_1_over_sqrt_L');
    expect(ex.map((r) => r[3])).toEqual([6, 8, 10]);
    expect(ex[0][5]).toBeCloseTo(1.6);
    expect(ex[2][5]).toBeCloseTo(1.6 * Math.sqrt(6 / 10));
  });
  it('fig4: every finite step of every run, then the seed-mean curves; nothing after a stop', () => {
    const G = grid();
    const r0 = G.runs[0];
    r0.status = 'diverged';
    r0.stop_step = 4;
    r0.loss = r0.loss.slice(0, 3);
    G.runs[1].loss[5] = NaN;
    const t = fig4Table(G);
    const seedRows = t.rows.filter((r) => r[3] !== 'mean');
    expect(seedRows.length).toBe(16 * 200 - 197 - 1);
    const means = t.rows.filter((r) => r[3] === 'mean' && r[0] === r0.placement && r[1] === r0.warmup && r[2] === r0.lr);
    expect(means.map((r) => r[4])).toEqual([1, 2, 3]);
    expect(means[0].slice(8)).toEqual(['diverged', 4]);
    expect(t.rows.every((r) => r[5] == null || Number.isFinite(r[5] as number))).toBe(true);
  });
});

describe('the phase-diagram figures’ downloads (fig13–fig15)', () => {
  it('the map: a row per run; a run that never escaped has an empty escape step; the JSON names the drawn placement', () => {
    const d = phaseDiagram();
    const t = fig15Table(d);
    const stuck = t.rows.find((r) => r[5] === 'plateau')!;
    expect(stuck[7]).toBeNull();
    const csv = toCsv(t, null);
    expect(csv.split('\r\n')[0]).toBe('placement,warmup,layers,lr,seed,outcome,stopped,escape_step,stop_step,final_loss,cell_outcome');
    expect(csv).toContain('post,0,8,0.001,0,plateau,end,,300,5.4,plateau');
    const j = fig15Json(d, 'pre');
    expect(j.drawn_placement).toBe('pre');
    expect(j.cells).toHaveLength(d.cells.length);
    expect(j.escape).toEqual({ window: 10, margin: 0.5 });
    expect(fig15Json(null, 'post').cells).toBeNull();
  });
  it('the claims’ figures export the same runs and settings', () => {
    const d = phaseDiagram(['pre'], { early_exit: 'off' });
    expect(fig14Json(d).config).toMatchObject({ early_exit: 'off' });
  });
});

describe('collapseGaps (empty bands of an exported picture)', () => {
  it.each<[string, [number, number][], number[]]>([
    ['nothing', [], []],
    ['one part', [[10, 50]], [0]],
    [
      'a gap within the limit stays',
      [
        [0, 20],
        [60, 80],
      ],
      [0, 0],
    ],
    [
      'a 100 px gap shrinks to 24',
      [
        [0, 20],
        [120, 140],
      ],
      [0, 76],
    ],
    [
      'every later part moves with it',
      [
        [0, 20],
        [120, 140],
        [150, 200],
      ],
      [0, 76, 76],
    ],
    [
      'two gaps add up',
      [
        [0, 10],
        [60, 70],
        [200, 210],
      ],
      [0, 26, 132],
    ],
    [
      'overlapping parts are one band',
      [
        [0, 100],
        [10, 20],
        [150, 160],
      ],
      [0, 0, 26],
    ],
    [
      'in any order',
      [
        [120, 140],
        [0, 20],
      ],
      [76, 0],
    ],
    [
      'a tall part covers what starts inside it',
      [
        [0, 300],
        [250, 260],
        [280, 400],
      ],
      [0, 0, 0],
    ],
  ])('%s', (_, spans, want) => expect(collapseGaps(spans)).toEqual(want));
  it('takes its limits as arguments', () => {
    expect(
      collapseGaps(
        [
          [0, 10],
          [40, 50],
        ],
        20,
        5,
      ),
    ).toEqual([0, 25]);
    expect(
      collapseGaps(
        [
          [0, 10],
          [40, 50],
        ],
        30,
        5,
      ),
    ).toEqual([0, 0]);
  });
});

describe('seriesTable', () => {
  it('the x column, then per measure one column per placement; one row per x', () => {
    const series = [
      { placement: 'post', y: [1, 2] },
      { placement: 'pre', y: [3, 4] },
    ];
    const t = (k: string) => k;
    const { columns, rows } = seriesTable({ key: 'L', label: 'L', values: [0, 1] }, series, t, [
      { key: '', value: (s, i) => String(s.y[i]) },
      { key: 'x2', label: 'twice', value: (s, i) => String(2 * s.y[i]) },
    ]);
    expect(columns).toEqual([
      { key: 'L', label: 'L' },
      { key: 'post', label: 'Post-LN', numeric: true },
      { key: 'pre', label: 'Pre-LN', numeric: true },
      { key: 'postx2', label: 'Post-LN · twice', numeric: true },
      { key: 'prex2', label: 'Pre-LN · twice', numeric: true },
    ]);
    expect(rows).toEqual([
      { L: 0, post: '1', pre: '3', postx2: '2', prex2: '6' },
      { L: 1, post: '2', pre: '4', postx2: '4', prex2: '8' },
    ]);
  });
});

describe('a step table line’s name (lineName), in each language’s punctuation', () => {
  const en = (k: string) => UI_STRINGS.en[k];
  const zh = (k: string) => UI_STRINGS.zh[k];
  it.each([
    [en, 'Post-LN', 'Adam', undefined, 'Post-LN: Adam'],
    [en, 'Post-LN', 'Adam', 'all', 'Post-LN: Adam, all'],
    [zh, 'Post-LN', 'Adam', undefined, 'Post-LN：Adam'],
    [zh, 'Post-LN', 'Adam', '全部', 'Post-LN：Adam，全部'],
  ])('%#: %s %s %s', (t, panel, series, part, want) => expect(lineName(t, panel, series, part)).toBe(want));
});

describe('stepRowsTable', () => {
  it('the names column, then a column per step; a row per line, its cells in step order', () => {
    const lines = [
      { name: 'Post-LN: Adam', value: (st: number) => `a${st}` },
      { name: 'Pre-LN: Adam', value: (st: number) => `b${st}` },
    ];
    expect(stepRowsTable('cap', 'Series', [1, 10], lines)).toEqual({
      caption: 'cap',
      columns: [
        { key: 's', label: 'Series' },
        { key: 't1', label: '1', numeric: true },
        { key: 't10', label: '10', numeric: true },
      ],
      rows: [
        { s: 'Post-LN: Adam', t1: 'a1', t10: 'a10' },
        { s: 'Pre-LN: Adam', t1: 'b1', t10: 'b10' },
      ],
    });
    expect(stepRowsTable('cap', 'Series', [], []).rows).toEqual([]);
  });
  it("figureStepTable: under the figure's tableCaption and col.series (a missing string reads as its key)", () => {
    const lines = [{ name: 'Post-LN', value: (st: number) => String(st) }];
    const text = { title: 'T', caption: 'C', tableCaption: 'Angles per step', 'col.series': 'Run' };
    expect(figureStepTable(text, [1, 2], lines)).toEqual(stepRowsTable('Angles per step', 'Run', [1, 2], lines));
    expect(figureStepTable({ title: 'T', caption: 'C' }, [1], lines)).toMatchObject({
      caption: 'tableCaption',
      columns: [{ key: 's', label: 'col.series' }, { key: 't1' }],
    });
  });
});
