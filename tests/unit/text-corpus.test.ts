// text-corpus.test.ts — the committed snapshot of the article's texts (public/data/text/, written by
// scripts/gen-corpus.mjs; docs/engine.md, "Real text"): each file is valid UTF-8, non-trivial (tens of
// kilobytes, many distinct bytes, no markup left), and the reference document of the real-text
// experiment was made from these very bytes (its recorded lengths and FNV-1a hashes).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const LANGS = ['en', 'zh'] as const;
const bytesOf = (lang: string) => readFileSync(new URL(`../../public/data/text/article.${lang}.txt`, import.meta.url));

/** FNV-1a, 64 bits, as 16 hex digits (wasm/text_data.cpp fnv1a64). */
function fnv1a64(bytes: Uint8Array): string {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}

describe('the article’s texts', () => {
  it.each(LANGS)('%s is valid UTF-8 and non-trivial', (lang) => {
    const b = bytesOf(lang);
    const text = new TextDecoder('utf-8', { fatal: true }).decode(b); // throws on invalid UTF-8
    expect(b.length).toBeGreaterThan(20000);
    expect(new Set(b).size).toBeGreaterThan(60);
    expect(text).not.toMatch(/\{\{|\\role\{|\*\*/); // the inline markup is stripped
    if (lang === 'zh') expect(text).toMatch(/[\u4e00-\u9fff]/);
  });
  it('FNV-1a of a known string', () => {
    expect(fnv1a64(new Uint8Array())).toBe('cbf29ce484222325');
    expect(fnv1a64(new TextEncoder().encode('a'))).toBe('af63dc4c8601ec8c');
  });
  const ref = new URL('../../public/data/exp/real-text.json', import.meta.url);
  it.runIf(existsSync(ref))('the reference runs were made from these bytes', () => {
    const doc = JSON.parse(readFileSync(ref, 'utf8')) as { texts: { parts: { lang: string; bytes: number; fnv1a64: string }[] }[] };
    for (const p of doc.texts.flatMap((t) => t.parts)) {
      const b = bytesOf(p.lang);
      expect(p.bytes).toBe(b.length);
      expect(p.fnv1a64).toBe(fnv1a64(b));
    }
  });
});
