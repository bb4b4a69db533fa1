// article.ts — loading the article for a language: content/zh.ts or content/en.ts, imported lazily
// (one chunk per language). The module may export the Article as default or as any named export.
import type { Article, Lang } from '../content/types';

const loaders = import.meta.glob<Record<string, unknown>>('../content/{zh,en}.ts');

export const isArticle = (x: unknown): x is Article =>
  !!x && typeof x === 'object' && Array.isArray((x as Article).sections) && typeof (x as Article).title === 'string';

/** Pick the Article out of a content module's exports. */
export function pickArticle(mod: Record<string, unknown>): Article | null {
  if (isArticle(mod.default)) return mod.default;
  for (const v of Object.values(mod)) if (isArticle(v)) return v;
  return null;
}

export async function loadArticle(lang: Lang): Promise<Article> {
  const load = loaders[`../content/${lang}.ts`];
  if (!load) throw new Error(`content/${lang}.ts is missing`);
  const a = pickArticle(await load());
  if (!a) throw new Error(`content/${lang}.ts exports no Article`);
  return a;
}
