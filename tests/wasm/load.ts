// load.ts — loads a WebAssembly flavour of the engine in Node (Vitest), as the recipe in
// docs/wasm.md says: the glue needs `wasmBinary` (Node's fetch cannot read file: URLs) and
// `require`/`__dirname` shims (the 3.1.6 ES-module glue still uses them for its pthread workers).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LnxModule } from '../../public/wasm/lnx';

export type Flavour = 'st' | 'mt';

export async function loadEngine(flavour: Flavour): Promise<LnxModule> {
  const glue = new URL(`../../public/wasm/lnx-${flavour}.mjs`, import.meta.url);
  const g = globalThis as Record<string, unknown>;
  g.require ??= createRequire(glue);
  g.__dirname ??= path.dirname(fileURLToPath(glue));
  const factory = (await import(/* @vite-ignore */ glue.href)).default;
  return factory({ wasmBinary: readFileSync(new URL(`lnx-${flavour}.wasm`, glue)) });
}
