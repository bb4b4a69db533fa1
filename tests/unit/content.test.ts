// content.test.ts — the article as data (web/src/content/): each language has exactly the text keys
// the shared skeleton (skeleton.ts) asks for, none empty; the two languages tell the same article
// (same sections in the same order, the same blocks, figure slots and {{key}} numbers in each), each
// registered figure has its slot and exactly its declared strings in both, the page chrome's strings
// (ui-strings.ts) match across languages, and every text key the page can ask for exists. That
// ui-keys.md lists exactly the keys there are is content-docs.test.ts (it is generated).
import { describe, expect, it } from 'vitest';
import en, { TEXT as EN } from '../../web/src/content/en';
import zh, { TEXT as ZH } from '../../web/src/content/zh';
import { textKeys } from '../../web/src/content/skeleton';
import type { Article, Block } from '../../web/src/content/types';
import { UI_STRINGS } from '../../web/src/content/ui-strings';
import { FIGURES, FIGURE_IDS, LINKS, figureById, figureNumber, stringKeysOf } from '../../web/src/figures/registry';
import { boundsOf, fieldError, referenceOf } from '../../web/src/lib/fields';
import { choiceLabel, reasonText, tableOf } from '../../web/src/lib/settings';
import { SLOT_NAMES } from '../../web/src/lib/slots';

const ARTICLES = { zh, en } as const;

/** The {{key}}s of any string in `x`, in order of appearance. */
const numbersIn = (x: unknown): string[] =>
  JSON.stringify(x)
    .match(/\{\{\s*[A-Za-z][\w.-]*\s*\}\}/g)
    ?.map((m) => m.replace(/[{}\s]/g, '')) ?? [];
/** The {name} placeholders of a template, sorted. */
const placeholders = (s: string) => [...new Set(s.match(/(?<!\{)\{(\w+)\}(?!\})/g) ?? [])].sort();

/** The {{#figN}} figure references of any string in `x`, in order of appearance. */
const figureRefsIn = (x: unknown): string[] =>
  JSON.stringify(x)
    .match(/\{\{#fig\d+\}\}/g)
    ?.map((m) => m.slice(3, -2)) ?? [];
/** Every block of an article, a test aside's own blocks right after the aside. */
const allBlocks = (a: Article): Block[] => {
  const flat = (b: Block): Block[] => (b.kind === 'test' ? [b, ...b.blocks.flatMap(flat)] : [b]);
  return a.sections.flatMap((s) => s.blocks).flatMap(flat);
};

/** What a block is, apart from its words: its kind, what it holds, and the numbers it quotes. */
function shape(b: Block): object {
  return {
    kind: b.kind,
    ...(b.kind === 'test' && { blocks: b.blocks.map(shape) }),
    ...(b.kind === 'figure' && { figure: b.id }),
    ...(b.kind === 'p' && { evidence: b.evidence ?? null }),
    ...(b.kind === 'list' && { items: b.items.length, ordered: !!b.ordered }),
    ...(b.kind === 'table' && { columns: b.head.length, rows: b.rows.length }),
    ...(b.kind === 'code' && { lang: b.lang }),
    numbers: numbersIn(b),
    figureRefs: figureRefsIn(b),
  };
}
const shapes = (a: Article) => a.sections.map((s) => ({ id: s.id, titled: !!s.title, blocks: s.blocks.map(shape) }));

describe.each([
  ['zh', ZH],
  ['en', EN],
] as const)('content/%s.ts has the skeleton’s text keys', (_, t) => {
  const keys = textKeys();
  it('each once', () => {
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
  it('none missing, none empty', () => {
    expect(keys.filter((k) => !t.text[k]?.trim())).toEqual([]);
  });
  it('none stray (a key the skeleton has no place for)', () => {
    expect(Object.keys(t.text).filter((k) => !keys.includes(k))).toEqual([]);
  });
});

describe('zh.ts and en.ts have the same structure', () => {
  it('each declares its own language', () => {
    expect([zh.lang, en.lang]).toEqual(['zh', 'en']);
  });
  it('the same section ids in the same order', () => {
    expect(zh.sections.map((s) => s.id)).toEqual(en.sections.map((s) => s.id));
  });
  it.each(en.sections.map((s, i) => [s.id, i]))('section %s: the same blocks, figure slots and {{key}}s', (_, i) => {
    expect(shapes(zh)[i]).toEqual(shapes(en)[i]);
  });
  it('the same {{key}}s in the title, subtitle and each figure’s strings', () => {
    expect(numbersIn([zh.title, zh.subtitle])).toEqual(numbersIn([en.title, en.subtitle]));
    for (const id of FIGURE_IDS) expect(numbersIn(zh.figures[id]), id).toEqual(numbersIn(en.figures[id]));
  });
});

describe.each(Object.entries(ARTICLES))('content/%s.ts and the registry', (_, a) => {
  const blocks = allBlocks(a);
  const slots = blocks.flatMap((b) => (b.kind === 'figure' ? [b.id] : []));
  it('has one slot per registered figure, in registry order', () => {
    expect(slots).toEqual(FIGURE_IDS);
  });
  it('puts each of the page’s tests, and only those, in a test aside, in the section whose paragraph points to it', () => {
    for (const f of FIGURES) {
      const section = a.sections.find((s) => s.blocks.some((b) => b.kind === 'test' && b.blocks.some((c) => c.kind === 'figure' && c.id === f.id)));
      // the composer (fig16) is lettered with the tests but tests no claim: it draws the reader's own
      // runs (slot null), beside the paragraph that points to it, outside any aside
      expect(!!section, f.id).toBe(f.series === 'test' && f.slot !== null);
      if (!section) continue;
      const at = section.blocks.findIndex((b) => b.kind === 'test' && b.blocks.some((c) => c.kind === 'figure' && c.id === f.id));
      const aside = section.blocks[at];
      // the aside restates the claim with its tag (an inference, a guess, or an observation the
      // article measured without a mechanism), then what the engine measured with the verdict
      const tagged = aside.kind === 'test' ? aside.blocks.filter((c) => c.kind === 'p' && c.evidence) : [];
      expect(tagged.length, f.id).toBeGreaterThanOrEqual(2);
      const last = tagged.at(-1);
      expect(last?.kind === 'p' && last.evidence, f.id).toBe('measured');
      // and the argument it interrupts points to it earlier in the same section
      expect(
        section.blocks.slice(0, at).some((b) => b.kind !== 'test' && figureRefsIn(b).includes(f.id)),
        `${f.id}: pointed to in ${section.id}`,
      ).toBe(true);
    }
  });
  it('refers only to registered figures', () => {
    for (const id of figureRefsIn([a.sections, a.figures])) expect(figureById(id), id).toBeDefined();
  });
  it('never types the label of one of the page’s tests (it follows page order: write {{#figN}})', () => {
    const text = JSON.stringify([a.sections, a.figures]);
    const word = a.lang === 'zh' ? '图 ?' : 'Figures? ';
    for (const f of FIGURES.filter((g) => g.series === 'test')) {
      expect(text, f.id).not.toMatch(new RegExp(`${word}${figureNumber(f.id)}\\b`));
      // nor its id's number (5 is left out: the paper has a Figure 5 of its own, which the article cites)
      if (f.id !== 'fig5') expect(text, f.id).not.toMatch(new RegExp(`${word}${f.id.slice(3)}(?![\\d])`));
    }
  });
  it('has strings for registered figures only', () => {
    expect(Object.keys(a.figures).sort()).toEqual([...FIGURE_IDS].sort());
  });
  it.each(FIGURES.map((f) => [f.id, f]))('%s: exactly the keys its folder declares, none empty', (id, f) => {
    const t = a.figures[id];
    expect(Object.keys(t).sort()).toEqual(stringKeysOf(f).sort());
    for (const k of stringKeysOf(f)) expect(t[k]?.trim(), `${id}.${k}`).toBeTruthy();
  });
});

describe('the same placeholders in both languages', () => {
  it('page chrome: the same keys, the same {name}s', () => {
    expect(Object.keys(UI_STRINGS.zh)).toEqual(Object.keys(UI_STRINGS.en));
    for (const k of Object.keys(UI_STRINGS.en)) expect(placeholders(UI_STRINGS.zh[k]), k).toEqual(placeholders(UI_STRINGS.en[k]));
  });
  it.each(FIGURES.map((f) => [f.id, f]))('%s: the same {name}s', (id, f) => {
    for (const k of stringKeysOf(f)) expect(placeholders(zh.figures[id][k]), `${id}.${k}`).toEqual(placeholders(en.figures[id][k]));
  });
});

describe('every text key the page can ask for exists', () => {
  /** 'url.lang' → a page string; 'fig4:err.lrs' → Figure 4's string */
  const exists = (key: string) => {
    const m = /^(fig\d+):(.+)$/.exec(key);
    return m ? stringKeysOf(FIGURES.find((f) => f.id === m[1])!).includes(m[2]) : key in UI_STRINGS.en;
  };
  /** the page strings a function of `t` asks for that do not exist */
  const missingOf = (f: (t: (k: string) => string) => unknown) => {
    const missing: string[] = [];
    f((k) => (k in UI_STRINGS.en && k in UI_STRINGS.zh ? UI_STRINGS.en[k] : (missing.push(k), k)));
    return missing;
  };
  it('the reason of every URL parameter (a run setting’s: its field’s message, lib/settings.ts reasonText)', () => {
    const reasons = LINKS.groups().flatMap((g) => Object.values(g.params).map((p) => p.reason));
    expect(reasons.filter((r) => (r.startsWith('field:') ? missingOf((t) => reasonText(r, t) ?? t(r)).length > 0 : !exists(r)))).toEqual([]);
    const page = ['url.lang', 'url.theme', 'url.embed', 'url.tooLong', 'url.unknown', 'url.duplicate'];
    expect(page.filter((k) => !exists(k))).toEqual([]);
  });
  it.each(SLOT_NAMES.map((n) => [n]))('the %s form’s strings: labels, messages, reasons, choices, groups, presets, rules', (n) => {
    const table = tableOf(n);
    const own = (k: string) => exists(`${table.figure}:${k}`);
    for (const r of table.rows) {
      const b = boundsOf(table, r);
      // a field is labelled by the page (field.<name>) or its figure (ctl.<name>); an optimizer's setting by its name
      if (!table.schema[r.field].onlyWhen && !own(`ctl.${r.field}`)) expect(`field.${r.field}` in UI_STRINGS.en, `${n}.${r.field}: label`).toBe(true);
      expect(
        missingOf((t) => [fieldError(table, r), fieldError(table, r, true)].map((e) => [t(e.key), e.why && t(`field.why.${e.why}`)])),
        r.field,
      ).toEqual([]);
      if (r.control === 'select')
        for (const v of b.choices)
          expect(
            missingOf((t) => choiceLabel(r.field, v, t)),
            `${r.field}=${v}`,
          ).toEqual([]);
      if (r.group) expect(own(r.group), `${n}: ${r.group}`).toBe(true);
      const hint = r.hint?.(referenceOf(table));
      if (hint) expect(own(hint.key), hint.key).toBe(true);
    }
    for (const { key } of Object.values(table.rules ?? {})) expect(own(key), key).toBe(true);
    for (const p of table.presets ?? []) expect(own(`preset.${p.key}`) && own('preset.label'), p.key).toBe(true);
    if (table.bases && table.rows.length) expect(own('ctl.small'), 'ctl.small').toBe(true);
  });
  it.each(['zh', 'en'] as const)('%s: url.embed names every figure', (lang) => {
    // the banner fills {figures} with the registry's ids (UrlBanner.svelte), so a new figure is named by itself
    expect(UI_STRINGS[lang]['url.embed']).toContain('{figures}');
  });
});
