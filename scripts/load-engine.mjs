// load-engine.mjs — loads a WebAssembly flavour of the engine (public/wasm/lnx-{st,mt,st-fma,mt-fma,gpu}.*) in Node;
// the one loader of the scripts, the benchmarks and the Vitest tests (tests/wasm/load.ts types it).
// The 3.1.6 glue needs `wasmBinary` (Node's fetch cannot read file: URLs) and `require`/`__dirname`
// shims (its ES-module output still uses them for the pthread workers). `options` go to the factory as
// well: the gpu flavour needs `{ gpuDevice }` (a device of the `webgpu` package, tests/gpu-node/).
// Like the page, it hands the engine the article's texts (public/data/text/article.<lang>.txt) for
// runs with data = "text" (docs/engine.md, "Real text").
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

export async function loadEngine(flavour, options = {}) {
  // the FMA flavours (lnx-*-fma) use relaxed SIMD, which Node 20's V8 has behind a flag (process-wide:
  // the pthread workers see it too)
  if (flavour.endsWith('-fma')) setFlagsFromString('--experimental-wasm-relaxed-simd');
  const glue = new URL(`../public/wasm/lnx-${flavour}.mjs`, import.meta.url);
  globalThis.require ??= createRequire(glue);
  globalThis.__dirname ??= path.dirname(fileURLToPath(glue));
  const factory = (await import(/* @vite-ignore */ glue.href)).default;
  const m = await factory({ ...options, wasmBinary: readFileSync(new URL(`lnx-${flavour}.wasm`, glue)) });
  for (const lang of TEXT_LANGS) m.setTextCorpus?.(lang, readFileSync(new URL(`../public/data/text/article.${lang}.txt`, import.meta.url)));
  return m;
}

/** The languages of the article's texts, one file each (scripts/gen-corpus.mjs). */
export const TEXT_LANGS = ['en', 'zh'];
