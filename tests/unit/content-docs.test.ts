// content-docs.test.ts — web/src/content/ui-keys.md and prose-numbers.md are generated
// (scripts/content-docs.mjs, from the keys of the code and the English article): this fails when
// a committed file is not what the generator makes now. `npm run gen:content-docs` writes them.
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { renderProseNumbers, renderUiKeys } from '../../scripts/content-docs.mjs';
import { TEXT } from '../../web/src/content/en';
import { UI_STRINGS } from '../../web/src/content/ui-strings';
import { FIGURES, figureNumber, stringKeysOf } from '../../web/src/figures/registry';
import { PROSE_NUMBER_KEYS } from '../../web/src/lib/prose-numbers';

/** For each {{key}} the English article quotes, where: text keys, `title`, `subtitle`, `figN.key`. */
function uses(): Record<string, string[]> {
  const places: [string, string][] = [
    ['title', TEXT.title],
    ['subtitle', TEXT.subtitle],
    ...Object.entries(TEXT.text),
    ...FIGURES.flatMap((f) => Object.entries(TEXT.figures[f.id]).map(([k, v]): [string, string] => [`${f.id}.${k}`, v])),
  ];
  const out: Record<string, string[]> = {};
  for (const [place, s] of places)
    for (const m of s.matchAll(/\{\{\s*([A-Za-z][\w.-]*)\s*\}\}/g)) if (!out[m[1]]?.includes(place)) (out[m[1]] ??= []).push(place);
  return out;
}

const DOCS = {
  'ui-keys.md': () =>
    renderUiKeys({
      chrome: UI_STRINGS.en,
      figures: FIGURES.map((f) => ({ id: f.id, label: figureNumber(f.id) ?? f.id, text: TEXT.figures[f.id], keys: stringKeysOf(f) })),
    }),
  'prose-numbers.md': () => renderProseNumbers({ keys: PROSE_NUMBER_KEYS, uses: uses() }),
};

it.each(Object.keys(DOCS) as (keyof typeof DOCS)[])('web/src/content/%s is what scripts/content-docs.mjs makes', (name) => {
  const file = new URL(`../../web/src/content/${name}`, import.meta.url);
  const made = DOCS[name]();
  if (process.env.LNX_WRITE_CONTENT_DOCS) writeFileSync(file, made);
  expect(readFileSync(file, 'utf8'), `${name} is generated: run \`npm run gen:content-docs\``).toBe(made);
});
