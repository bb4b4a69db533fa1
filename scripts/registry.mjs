// registry.mjs — the page's figure registry (web/src/figures/registry.ts: the figures, their
// numbers, the experiment slots of web/src/experiments/) for the Node scripts, through Vite's SSR
// loader (as prerender.mjs loads the page), so that no script keeps its own list of experiments.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Vite's SSR loader over the page's sources (middleware mode: no server, no HMR); close it after. */
export const ssrLoader = () =>
  createServer({
    configFile: join(root, 'vite.config.ts'),
    server: { middlewareMode: true, hmr: false },
    appType: 'custom',
    logLevel: 'error',
  });

export async function loadRegistry() {
  const vite = await ssrLoader();
  try {
    return await vite.ssrLoadModule('/src/figures/registry.ts');
  } finally {
    await vite.close();
  }
}
