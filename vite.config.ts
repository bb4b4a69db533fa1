// vite.config.ts — build, dev/preview servers and Vitest for ln-explorable.
//
// Layout: the page lives in web/ (Vite root), static assets (the Emscripten glue in public/wasm/,
// the precomputed results in public/data/) in public/ at the repo root and are copied verbatim to
// dist/. The glue is never bundled: Vite would rebundle the threaded glue's own pthread worker as an
// ES module worker while the glue starts it as a classic one, and the threaded build would fail to
// load (the worker imports the glue from public/wasm/ at run time instead: engine/worker.ts).
// COOP/COEP on dev and preview make the page cross-origin isolated, so the worker picks the threaded
// flavour; on a plain static server public/sw.js adds them (after one reload: web/src/lib/isolation.ts).
//
// LNX_FIXTURES=/some/dir (dev and preview only) serves /data/* and /wasm/* from that directory when
// public/ has no such file — for developing against sample data before the engine's real output
// exists. Nothing from it is ever copied into dist/.
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const MIME: Record<string, string> = {
  '.json': 'application/json',
  '.mjs': 'text/javascript',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
};

/** Dev/preview-only fallback for /data/* and /wasm/* from $LNX_FIXTURES (see header). */
function fixtures(): Plugin {
  const dir = process.env.LNX_FIXTURES;
  const serve = (req: { url?: string }, res: any, next: () => void) => {
    const url = (req.url ?? '').split('?')[0];
    if (!dir || !/^\/(data|wasm)\/[\w.-]+$/.test(url)) return next();
    if (existsSync(join(here, 'public', url))) return next();
    const file = join(resolve(dir), url);
    if (!existsSync(file) || !statSync(file).isFile()) return next();
    res.setHeader('Content-Type', MIME[extname(file)] ?? 'application/octet-stream');
    res.setHeader('Cache-Control', 'no-store');
    res.end(readFileSync(file));
  };
  return {
    name: 'lnx-fixtures',
    configureServer: (s) => void s.middlewares.use(serve),
    configurePreviewServer: (s) => void s.middlewares.use(serve),
  };
}

/** Build only: once the bundle is written, the article goes into dist/index.html as static HTML
 *  (scripts/prerender.mjs), so it is readable without JavaScript and painted before the script runs. */
function prerenderArticle(): Plugin {
  return {
    name: 'lnx-prerender',
    apply: (_, env) => env.command === 'build' && !env.isSsrBuild,
    async closeBundle() {
      const { prerender } = await import('./scripts/prerender.mjs');
      await prerender({ log: (s: string) => console.log(s) });
    },
  };
}

/** Unit test files that change what other files import (a figure registered for the test), run with
 *  the engine's tests, each file in modules of its own. */
const ISOLATED_UNIT = ['tests/unit/fake-experiment.test.ts'];
/** Vitest hands files to its workers in the order of this list: with no record of earlier runs (a
 *  fresh clone) BaseSequencer puts the larger files first. The longest file (quick-verdicts: the native
 *  runs of the slow quick settings, single-threaded processes as many at once as there are cores, about
 *  160 CPU-seconds) goes first, so that the second worker (`maxWorkers` below) takes the rest beside it
 *  (npm test runs it on its own, at the lowest priority: scripts/test.sh); then the other slow ones; the
 *  rest as Vitest orders them (from a record of earlier runs: longest first). */
const SLOW_FIRST = ['tests/wasm/quick-verdicts.test.ts', 'tests/wasm/threads.test.ts', 'tests/wasm/forms.test.ts'];
class SlowFilesFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((p) => f.moduleId.endsWith(p));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  root: join(here, 'web'),
  publicDir: join(here, 'public'),
  base: process.env.LNX_BASE ?? '/', // e.g. LNX_BASE=/ln-explorable/ for a sub-path deployment
  plugins: [svelte(), fixtures(), prerenderArticle()],
  server: { headers: isolation },
  preview: { headers: isolation },
  worker: { format: 'es' },
  build: {
    outDir: join(here, 'dist'),
    emptyOutDir: true,
    // One stylesheet, linked from the page: the components' styles too. Split, theirs came with the
    // live page's chunk (page/boot.ts), loaded after the first paint, so the article the build wrote
    // painted without them (a figure's legend as a bulleted list, its heat maps black: and so it
    // stayed without JavaScript), and the whole page was styled again when they came.
    cssCodeSplit: false,
    target: 'es2022',
    // KaTeX fonts are emitted as hashed assets next to the CSS; never inline them.
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Svelte's runtime in a chunk of its own. Its module makes an Error as it is evaluated
          // (svelte/src/internal/client/constants.js STALE_REACTION); where an inspector is attached
          // (DevTools, Lighthouse, the benches' and tests' Chromium) V8 then reads the whole script
          // whose top-level code is on the stack again for its source positions: inside the live
          // page's chunk (543 KB) 23-35 ms at desktop speed, inside a chunk of Svelte alone
          // a few ms. Without an inspector it costs nothing either way (bench/notes/mainthread.md).
          groups: [{ name: 'svelte', test: /[\\/]node_modules[\\/](svelte|esm-env)[\\/]/ }],
        },
      },
    },
  },
  test: {
    root: here,
    sequence: { sequencer: SlowFilesFirst },
    // Vitest's default is one worker fewer than the CPUs: on CI's 2 cores, one, and every file ran after
    // the other (226 s, the sum of the files); two let the single-threaded files run beside the native
    // quick verdicts' runs.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    environment: 'node',
    // KaTeX loads on demand (web/src/lib/tex.ts): loaded before every test file
    setupFiles: ['tests/unit/setup-tex.ts'],
    testTimeout: 60000,
    // Two projects. The page's pure transforms (tests/unit) share one module graph per worker
    // (isolate: false): each file otherwise imported the content, the registry and KaTeX again, which
    // was 60% of the unit tests' CPU time (48 → 20 CPU-s on 2 cores, 2026-12-06). They hold no state
    // across files, except the file that registers a figure of its own (fake-experiment), which stays
    // isolated with the engine's tests (tests/wasm: modules of their own, processes, native runs).
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: [...ISOLATED_UNIT], isolate: false },
      },
      { extends: true, test: { name: 'engine', include: ['tests/wasm/**/*.test.ts', ...ISOLATED_UNIT] } },
    ],
  },
});
